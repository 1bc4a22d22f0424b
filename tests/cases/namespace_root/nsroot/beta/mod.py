# namespace: binds B first, then needs alpha's A: works only if alpha is not already half-built.
B = "beta"

from nsroot.alpha import A  # noqa: E402
