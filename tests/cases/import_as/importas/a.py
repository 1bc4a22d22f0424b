# R7: `import importas.b as bmod` before X is bound; b imports a back while a is partial.
import importas.b as bmod

X = "a"


def partner():
    return bmod.Y
