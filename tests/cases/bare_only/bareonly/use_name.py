# bare: `from bareonly import NAME` works only if bareonly/__init__ ran.
from bareonly import NAME

COPY = NAME
