from envc.folded import Y  # noqa: F401

X = 3
