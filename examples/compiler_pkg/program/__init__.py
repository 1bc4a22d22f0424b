"""Programs: the unit that backends compile."""
from ._program import Program
from ._fake_program import FakeProgram

__all__ = ["FakeProgram", "Program"]
