DEFAULTS = ["a", "b"]


def run(more=()):
    return list(DEFAULTS) + list(more)
