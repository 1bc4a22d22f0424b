from .meta import Plugin

class Zipper(Plugin):
    pass
