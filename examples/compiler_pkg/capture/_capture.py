"""Record IR nodes into a Program, optionally verifying the result."""
from .. import ir
from ..program import Program
# BUG (circular): verifier imports capture._config at its top, before it defines Verifier, so
# importing compiler_pkg.verifier first fails here. Verifier is only needed inside finish():
# moving this import into that function fixes it.
from ..verifier import Verifier
from ._config import CaptureConfig


class Capture:
    """Collects IR nodes until finish() turns them into a Program."""

    def __init__(self, name, config=None):
        self.name = name
        self.config = config or CaptureConfig()
        self.nodes = []

    def record(self, opcode, *args):
        """Append one node; refuses to grow beyond the configured limit."""
        if len(self.nodes) >= self.config.max_nodes:
            raise OverflowError("capture %r is full" % self.name)
        self.nodes.append(ir.Node(opcode, args))

    def finish(self):
        """Build the program, verifying it when the config asks for it."""
        program = Program.from_capture(self)
        if self.config.verify:
            Verifier(self.config).check(program)
        return program
