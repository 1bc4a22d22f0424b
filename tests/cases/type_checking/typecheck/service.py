# R13: `typing.TYPE_CHECKING` guard spelled through the module; the real import of models is fine.
import typing

from typecheck.models import Model

if typing.TYPE_CHECKING:
    from typecheck.annot_future import Registry


class Service:
    """Holds models."""

    def add(self, model: Model, registry: "Registry") -> None:
        self.model = model
