from depver.e import E  # noqa: F401

F = 1
