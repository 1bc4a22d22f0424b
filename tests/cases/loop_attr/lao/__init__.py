import importlib

from . import names


def load_all():
    for n in names.ALL:
        importlib.import_module("lao.plugins." + n)


load_all()
VALUE = 1
