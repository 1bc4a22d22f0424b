def load():
    from .late import LATER
    return LATER


class Holder:
    def __init__(self):
        self.value = load()


obj = Holder()
LATER = 1
