def alpha():
    pass


def beta():
    pass


def helper():
    pass


_hidden = 1
