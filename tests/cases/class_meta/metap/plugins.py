from .plugin import Plugin


class Quiet(Plugin, load=False):
    pass


class Loud(Plugin, load=True):  # __init_subclass__ gets load=True: it imports
    pass


PLUGINS = 1
