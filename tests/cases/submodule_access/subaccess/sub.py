# R2/R6: imports user before f exists.
import subaccess.user  # noqa: F401


def f():
    return "f"
