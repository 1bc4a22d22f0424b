"""Model appears in string annotations only: the import can live under TYPE_CHECKING."""
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import Model


class Service:
    def create(self) -> "Model":
        raise NotImplementedError

    def save(self, item: "Model") -> None:
        pass
