def load(name):
    from .literal import LATER
    return name, LATER


class Holder:
    def __init__(self, name, size=2):
        self.value = load(name) if size else None


obj = Holder("x", size=3)
LATER = 1
