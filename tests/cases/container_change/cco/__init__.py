import importlib

PLUGINS = {"main": "cco.heavy"}
MODULES = ["cco.light"]


def _register(name):
    PLUGINS["main"] = name
    MODULES.append("cco.extra")


_register("cco.light")
__import__(PLUGINS["main"])
for m in MODULES:
    importlib.import_module(m)
VALUE = 1
