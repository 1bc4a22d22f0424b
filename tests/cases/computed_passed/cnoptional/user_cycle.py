# R27: the same with an analysed module: partner runs now and reads LATER too early (an
# AttributeError, which `except ImportError` does not catch).
from cnoptional.decorators import skip_if_no

SKIP = skip_if_no("cnoptional.partner")
LATER = 1
