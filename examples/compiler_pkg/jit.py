"""A just-in-time backend that optimises programs before emitting them."""
from .backend_api import Backend, register_backend


@register_backend
class JitBackend(Backend):
    """Like the interpreter backend, on an optimised copy of the program."""

    name = "jit"

    def compile(self, program, spec):
        program = DEFAULT_OPTIMIZER.optimize(program)
        return [(opcode, index) for index, opcode in enumerate(program.opcodes)]


# The optimizer's own backends build on JitBackend, so it is imported only after the class
# exists: entered from here, the cycle works. BUG (circular, and still under PEP 810 lazy
# imports): importing compiler_pkg.optimizer first runs this module while optimizer has not
# defined Optimizer yet, and DEFAULT_OPTIMIZER below needs it now, at import time.
from .optimizer import Optimizer  # noqa: E402

DEFAULT_OPTIMIZER = Optimizer(level=1)
