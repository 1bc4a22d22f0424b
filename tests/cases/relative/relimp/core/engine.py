# R8: `from . import config` (sibling, cycle), `from ..util.fmt import fmt_name` (parent's sibling),
# `from .sub.m import n` (nested subpackage).
ENGINE = "engine"

from . import config  # noqa: E402
from ..util.fmt import fmt_name  # noqa: E402

LABEL = fmt_name(ENGINE)

from .sub.m import n  # noqa: E402


def current_engine():
    return config.current()
