class ToolMissing(FileNotFoundError):
    pass


def find_tool(name):
    raise ToolMissing(name)


from eco import probe  # noqa: E402,F401 - after the names it reads
