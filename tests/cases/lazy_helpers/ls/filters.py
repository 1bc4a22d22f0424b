import ls

Y = ls.ops.X  # ops reads blur back through the loader, before it is defined here


def blur():
    pass


def sharpen():
    pass
