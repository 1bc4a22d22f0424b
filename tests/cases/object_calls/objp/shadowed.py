class Shadowed:
    def __init__(self):
        self.load = self.skip

    def skip(self):
        return None

    def load(self):
        from . import shadow_reader
