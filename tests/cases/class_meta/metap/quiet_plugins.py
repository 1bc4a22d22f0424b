from .plugin import Plugin


class Quiet(Plugin):
    pass


class AlsoQuiet(Plugin, load=False):
    pass
