class Loader:
    def run(self):
        from .instance import LATER
        return LATER


def use(obj):
    return obj.run()


loader = Loader()
use(loader)
LATER = 1
