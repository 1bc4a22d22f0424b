# R2: f is bound first, yet `subaccess.sub2` is not an attribute of subaccess until sub2 finishes.
def f():
    return "f"


import subaccess.user2  # noqa: E402,F401
