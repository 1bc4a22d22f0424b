# R8/R5: `from ..core.engine import ENGINE` closes the cycle; ENGINE is bound before engine imports us,
# but when fmt is entered first, engine's `from ..util.fmt import fmt_name` finds fmt partial.
from ..core.engine import ENGINE


def fmt_name(name):
    return "<%s>" % name


DEFAULT = fmt_name(ENGINE)
