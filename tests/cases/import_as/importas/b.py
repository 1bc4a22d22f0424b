# R7: `import p.a as x` compiles to IMPORT_FROM (3.7+), so the sys.modules fallback makes it work
# although importas.a is not yet bound on importas.
import importas.a as amod

Y = "b"


def partner():
    return amod.X
