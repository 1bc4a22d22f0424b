# R13: `from typing import TYPE_CHECKING` guard: the import never runs; used only in string annotations.
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typecheck.service import Service


class Model:
    """A record owned by a service."""

    def owner(self) -> "Service":
        raise NotImplementedError
