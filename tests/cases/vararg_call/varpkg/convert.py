from varpkg.numbers import SHAPE


def convert(arg):
    return str(arg)
