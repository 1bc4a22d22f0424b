from ls import blur  # noqa: F401

X = 1
