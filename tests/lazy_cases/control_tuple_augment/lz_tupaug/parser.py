DEFAULTS = ("a", "b")


def run(more=()):
    steps = DEFAULTS
    steps += more
    return steps
