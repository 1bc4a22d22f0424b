from .loader import LateLoader

QUIET = 1
x = LateLoader()
x.load()
