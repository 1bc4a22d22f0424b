# R21: the same discovery where Base is bound first: every plugin imports.
import importlib
import pkgutil

from cli import good

Base = object
for info in pkgutil.iter_modules(good.__path__):
    importlib.import_module("cli.good." + info.name)
