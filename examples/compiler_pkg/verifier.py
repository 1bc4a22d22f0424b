"""Structural checks run on programs before they are compiled."""
from . import ir
# Runs compiler_pkg/capture/__init__.py, whose _capture.py does `from ..verifier import Verifier`
# while this module is still here, before Verifier exists.
from .capture._config import CaptureConfig


class VerificationError(Exception):
    """A program broke one of the verifier's rules."""


class Verifier:
    """Checks opcodes and size limits."""

    def __init__(self, config=None):
        self.config = config or CaptureConfig()

    def check(self, program):
        """Raise VerificationError for the first problem found in the program."""
        if len(program) > self.config.max_nodes:
            raise VerificationError("%s: too many nodes" % program.name)
        for position, opcode in enumerate(program.opcodes):
            if not ir.is_known(opcode):
                raise VerificationError("%s:%d: unknown opcode %r" % (program.name, position, opcode))


def verify(program):
    """True when the program passes every check."""
    try:
        Verifier().check(program)
    except VerificationError:
        return False
    return True
