from cf._environment import is_fbcode, is_release  # noqa: F401
