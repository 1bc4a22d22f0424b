"""Human-readable reports about programs."""
from .ir import OPCODES


def explain(program):
    """List the problems the verifier finds, plus any opcode outside the IR."""
    from .verifier import VerificationError, Verifier  # function-level import: harmless

    problems = ["unknown opcode %r" % op for op in program.opcodes if op not in OPCODES]
    try:
        Verifier().check(program)
    except VerificationError as exc:
        problems.insert(0, str(exc))
    return problems


def summary(program):
    """A one-line description of a program."""
    import compiler_pkg.passes  # function-level import: harmless

    return "%s (%d nodes; %s)" % (program.name, len(program),
                                  compiler_pkg.passes.describe(program).replace("\n", ", "))


def strict_check(program):
    """Verify a program through the package namespace.

    Works only because ``import compiler_pkg`` happens to load ``compiler_pkg.verifier``
    (through ``capture``): this module never imports it itself.
    """
    import compiler_pkg

    return compiler_pkg.verifier.verify(program)
