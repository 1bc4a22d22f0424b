PLUGINS = {"main": "ccu.light"}


def _fill(table):
    table["main"] = "ccu.heavy"


_fill(PLUGINS)
__import__(PLUGINS["main"])
VALUE = 1
