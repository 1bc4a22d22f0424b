from lrd.target import VALUE


def get():
    return VALUE


RESULT = get()  # a function called while the module runs reads the lazy name
