from .loader import Loader

x = Loader()
x.load()
BOOT = 1
