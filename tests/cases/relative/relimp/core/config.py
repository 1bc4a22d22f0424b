# R8/R5: `from . import engine` while engine runs works through the sys.modules fallback.
from . import engine


def current():
    return engine.ENGINE
