# R12/R13: a module-level annotated assignment evaluates its annotation: NameError for a guarded name.
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typecheck.models import Model

default_model: Model = None
