"""The interface every compiler backend implements, and the backend registry."""
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

# Runs compiler_pkg/program/__init__.py, whose _program.py does `from ..backend_api import Spec`
# while this module is still here, before Spec exists.
from .program._fake_program import FakeProgram

if TYPE_CHECKING:
    from .program import Program  # annotation-only imports, never executed
    from .verifier import Verifier

_BACKENDS = {}


@dataclass(frozen=True)
class Spec:
    """What to compile, for which backend, with which options."""

    backend: str
    program: str
    options: dict = field(default_factory=dict)


class Backend:
    """Base class of all backends: turns a program into backend instructions."""

    name = "abstract"

    def compile(self, program: "Program", spec: Spec) -> list:
        raise NotImplementedError

    def smoke_test(self) -> bool:
        """Compile the fake program; True when the backend emits one instruction per opcode."""
        fake = FakeProgram()
        return len(self.compile(fake, Spec(self.name, fake.name))) == len(fake)

    def verified_compile(self, verifier: "Verifier", program: "Program", spec: Spec) -> list:
        """Compile only programs the verifier accepts."""
        verifier.check(program)
        return self.compile(program, spec)


def register_backend(cls):
    """Class decorator: make a backend available through get_backend()."""
    _BACKENDS[cls.name] = cls
    return cls


def get_backend(name):
    """Instantiate the backend registered under ``name``."""
    try:
        return _BACKENDS[name]()
    except KeyError:
        raise LookupError("unknown backend %r" % name) from None


@register_backend
class InterpreterBackend(Backend):
    """A backend that emits one (opcode, position) pair per instruction."""

    name = "interp"

    def compile(self, program: "Program", spec: Spec) -> list:
        return [(opcode, index) for index, opcode in enumerate(program.opcodes)]
