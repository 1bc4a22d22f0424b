import importlib

PLUGINS = {"main": "ccf.light"}
MODULES = ["ccf.light"]
del PLUGINS["main"]
PLUGINS["main"] = "ccf.light"


def _register():
    PLUGINS["main"] = "ccf.heavy"


_register()
__import__(PLUGINS["main"])
MODULES.append("ccf.extra")
for m in MODULES:
    importlib.import_module(m)
VALUE = 1
