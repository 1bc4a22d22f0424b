from .built import BUILT
