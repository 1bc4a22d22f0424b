# bare: names defined only in the package __init__; in bare mode this file never runs.
NAME = "bareonly"


def helper():
    return NAME
