from .parser import DEFAULTS

TAGS = DEFAULTS
TAGS += ["d"]
