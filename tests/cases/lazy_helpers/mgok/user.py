import mgok.early  # noqa: F401
