# reads back, in its own body, a name its dynamic binding just made (scipy.special's
# `globals().update(...)` then `digamma = psi`): this point of the body follows the binding
# in every import order, so the name is taken as bound
import inspect

from . import _impl

globals().update(dict(inspect.getmembers(_impl, inspect.isfunction)))
TIMES = multiply  # noqa: F821
