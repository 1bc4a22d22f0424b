def is_fbcode() -> bool:
    """False outside Meta's monorepo (torch._environment's shape)."""
    return False


def is_release():
    return True
