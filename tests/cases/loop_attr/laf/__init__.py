import importlib

from . import names


def load_all():
    for n in names.ALL:
        importlib.import_module("laf.plugins." + n)


load_all()
VALUE = 1
