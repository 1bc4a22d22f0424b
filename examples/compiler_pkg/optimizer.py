"""Program optimisations, and backends that profile what they optimise."""
from .jit import JitBackend


class TracingJitBackend(JitBackend):
    """A JIT backend that records which opcodes it emitted (base class read at import time)."""

    name = "tracing-jit"

    def __init__(self):
        self.emitted = []

    def compile(self, program, spec):
        out = super().compile(program, spec)
        self.emitted.extend(opcode for opcode, _ in out)
        return out


class Optimizer:
    """Removes no-op instructions; higher levels do more."""

    def __init__(self, level=0):
        self.level = level

    def optimize(self, program):
        if self.level == 0:
            return program
        kept = [opcode for opcode in program.opcodes if opcode != "nop"]
        return _Copy(program.name, kept)


class _Copy:
    def __init__(self, name, opcodes):
        self.name = name
        self.opcodes = opcodes

    def __len__(self):
        return len(self.opcodes)
