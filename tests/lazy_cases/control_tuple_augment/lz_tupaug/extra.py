from .parser import DEFAULTS, run

STEPS = run(("c",))
TAGS = DEFAULTS
TAGS += ("d",)
