"""Programs built from IR nodes."""
from typing import TYPE_CHECKING

from .. import ir
# BUG (circular): backend_api imports this package at its top, before it defines Spec, so
# importing compiler_pkg.backend_api first fails here. Spec is only needed inside spec_for():
# moving this import into that function fixes it.
from ..backend_api import Spec
from ._base import ProgramBase

if TYPE_CHECKING:
    from ..capture import Capture  # annotation-only import, never executed


class Program(ProgramBase):
    """A named list of IR nodes."""

    def __init__(self, name, nodes=()):
        nodes = list(nodes)
        super().__init__(name, [node.opcode for node in nodes])
        self.nodes = nodes

    @classmethod
    def from_capture(cls, capture: "Capture") -> "Program":
        """Build a program from everything a capture recorded."""
        return cls(capture.name, capture.nodes)

    def lower(self):
        """Return a new program with the standard passes applied."""
        return Program(self.name, ir.lower_all(self.nodes))

    def spec_for(self, backend_name, **options):
        """Describe how this program should be compiled for a backend."""
        return Spec(backend=backend_name, program=self.name, options=dict(options))
