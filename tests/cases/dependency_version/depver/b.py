from depver.a import A  # noqa: F401

B = 2
