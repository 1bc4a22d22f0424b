# a star import from a module outside the analysed code binds whatever is asked of it
from json import *  # noqa: F403

ENCODE = dumps  # noqa: F405
