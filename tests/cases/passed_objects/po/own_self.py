class Loader:
    def __init__(self, arg=None):
        self.found = use(self)

    def run(self):
        from .own_self import LATER
        return LATER


def use(obj):
    return obj.run()


Loader(1)
LATER = 1
