LATER = 1


def load():
    from .calm import LATER
    return LATER


class Holder:
    def __init__(self):
        self.value = load()


obj = Holder()
