from .fields import Caught

try:
    class Model:
        f = Caught()
except ImportError:
    pass
CAUGHT = 1
