from . import loader
