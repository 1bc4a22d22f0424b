# R21: a package importing its own modules by iter_modules(__path__), before it binds ALL.
import importlib
import pkgutil

for m in pkgutil.iter_modules(__path__):
    importlib.import_module("." + m.name, __name__)
ALL = True
