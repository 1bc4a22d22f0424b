LATER = 1


class Loader:
    def run(self):
        from .calm import LATER
        return LATER


def use(obj):
    return obj.run()


use(Loader())
