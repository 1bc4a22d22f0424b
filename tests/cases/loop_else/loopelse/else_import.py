for name in ("a", "b"):
    if name == "b":
        break
else:
    from . import not_a_module  # only if nothing broke: it does
