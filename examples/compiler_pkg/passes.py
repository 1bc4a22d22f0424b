"""Rewrites applied to IR node lists."""
from typing import TYPE_CHECKING

import compiler_pkg.ir  # harmless cycle: compiler_pkg.ir is only read inside functions

if TYPE_CHECKING:
    from .program import Program  # annotation-only import, never executed


def fold_constants(nodes):
    """Replace ``const a; const b; add`` by a single ``const a+b``."""
    out = []
    for node in nodes:
        if (node.opcode == "add" and len(out) >= 2
                and out[-1].opcode == "const" and out[-2].opcode == "const"):
            right, left = out.pop(), out.pop()
            node = compiler_pkg.ir.Node("const", (left.args[0] + right.args[0],))
        out.append(node)
    return out


def drop_dead_stores(nodes):
    """Remove a ``store`` immediately overwritten by another store to the same slot."""
    out = []
    for node in nodes:
        if out and node.opcode == "store" and out[-1].opcode == "store" and out[-1].args == node.args:
            out.pop()
        out.append(node)
    return out


PIPELINE = (fold_constants, drop_dead_stores)


def run_pipeline(nodes):
    """Apply every pass of PIPELINE in order."""
    for apply_pass in PIPELINE:
        nodes = apply_pass(nodes)
    return nodes


def describe(program: "Program") -> str:
    """One line per pass saying how many nodes it would remove from the program."""
    lines = []
    nodes = list(program.nodes)
    for apply_pass in PIPELINE:
        after = apply_pass(nodes)
        lines.append("%s: -%d" % (apply_pass.__name__, len(nodes) - len(after)))
        nodes = after
    return "\n".join(lines)
