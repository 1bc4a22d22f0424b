from ecf import probe  # noqa: F401 - runs before the names below exist


class ToolMissing(FileNotFoundError):
    pass


def find_tool(name):
    raise ToolMissing(name)
