"""Intermediate representation: nodes and the opcode table."""
from . import passes  # harmless cycle: passes is only used inside functions below

OPCODES = frozenset({"const", "load", "store", "add", "mul"})


class Node:
    """One IR instruction: an opcode and its operands."""

    __slots__ = ("opcode", "args")

    def __init__(self, opcode, args=()):
        self.opcode = opcode
        self.args = tuple(args)

    def __repr__(self):
        return "Node(%r, %r)" % (self.opcode, self.args)

    def __eq__(self, other):
        return isinstance(other, Node) and (self.opcode, self.args) == (other.opcode, other.args)


def is_known(opcode):
    """True when the opcode is part of the IR."""
    return opcode in OPCODES


def lower_all(nodes):
    """Run the standard pass pipeline over a node list."""
    return passes.run_pipeline(nodes)
