from . import running

TIMES = running.multiply
