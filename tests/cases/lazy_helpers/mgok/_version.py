from mgok import READY  # noqa: F401

version = "1.0"
