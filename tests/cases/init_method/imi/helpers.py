import imi


def check():
    return imi.VALUE
