# R12/R13: a parameter annotation is evaluated when the def runs: NameError for a guarded name.
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typecheck.models import Model


def describe(model: Model) -> str:
    return repr(model)
