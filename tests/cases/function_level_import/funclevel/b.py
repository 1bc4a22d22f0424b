# R12: the cycle is closed only by a function-level import, which runs later: harmless.
B = "b"


def partner():
    from funclevel.a import A
    return A
