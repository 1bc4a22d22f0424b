from envc.plugins import NAME  # noqa: F401

REGISTRY = {}
