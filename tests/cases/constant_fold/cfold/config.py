# scipy.__config__'s shape: meson writes booleans as string expressions
HAS_ILP64 = bool(r"False".lower().replace("false", ""))

if HAS_ILP64:
    from cfold._ilp64 import table  # noqa: F401  (no such module)
