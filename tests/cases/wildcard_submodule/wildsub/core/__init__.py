from .parts import *
