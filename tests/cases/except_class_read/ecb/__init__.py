class ToolMissing(FileNotFoundError):
    pass


def find_tool(name):
    raise ToolMissing(name)
