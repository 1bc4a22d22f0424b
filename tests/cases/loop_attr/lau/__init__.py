import importlib

from . import names

for n in names.ALL:
    importlib.import_module("lau.plugins." + n)
VALUE = 1
