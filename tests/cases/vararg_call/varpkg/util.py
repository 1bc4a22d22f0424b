def dimension(*args):
    if len(args) > 3:
        raise ValueError("at most three")
    out = []
    for arg in args:
        if isinstance(arg, str):
            out.append(arg)
        else:
            from varpkg.convert import convert
            out.append(convert(arg))
    return out
