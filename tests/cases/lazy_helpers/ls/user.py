from ls import sharpen  # noqa: F401
