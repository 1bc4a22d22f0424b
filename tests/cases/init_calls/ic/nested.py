def load():
    from .nested import LATER
    return LATER


class Inner:
    def __init__(self):
        self.value = load()


def make():
    return Inner()


class Outer:
    def __init__(self):
        self.inner = make()


obj = Outer()
LATER = 1
