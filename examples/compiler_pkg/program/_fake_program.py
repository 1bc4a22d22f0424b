"""A program stand-in used to smoke-test backends."""
from ._base import ProgramBase


class FakeProgram(ProgramBase):
    """A fixed three-instruction program that every backend must accept."""

    def __init__(self):
        super().__init__("fake", ["load", "add", "store"])
        self.nodes = []
