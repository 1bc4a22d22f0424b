# __all__: sub, A, B, Gone, Extra, each read through __getattr__ (Gone fails)
from pl import *  # noqa: F401,F403
