import mg.early  # noqa: F401
