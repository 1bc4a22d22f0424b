from . import b

X = 1
