# R12/R13: with `from __future__ import annotations` both kinds of annotation stay strings: ok.
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typecheck.models import Model

default_model: Model = None


class Registry:
    """Maps names to models."""

    def register(self, model: Model) -> None:
        self.model = model
