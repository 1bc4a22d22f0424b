KIND = "auto"
if KIND not in ("auto", "fast"):
    from .kinds_back import Z
if KIND in ("auto", "fast"):
    from .kinds_back import W
DONE = 1
