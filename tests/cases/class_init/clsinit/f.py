class Lazy:
    def __new__(cls, *args):  # __new__ then __init__ (both run: CPython fails)
        return object.__new__(cls)

    def __init__(self):
        self.value = LATER


thing = Lazy()
LATER = 1
