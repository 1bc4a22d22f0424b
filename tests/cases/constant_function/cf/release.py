# the condition is true: the import in it runs, and fails by the cycle
from cf import config

if config.is_release():
    from cf.cycle import BACK  # noqa: F401

RELEASE = 1
