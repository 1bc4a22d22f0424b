from depver.g import G  # noqa: F401

H = 1
