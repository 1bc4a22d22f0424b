from dg import extra  # noqa: F401
