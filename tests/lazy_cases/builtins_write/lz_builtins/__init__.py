from . import install
