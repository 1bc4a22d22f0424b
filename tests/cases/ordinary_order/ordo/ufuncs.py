# binds every function of _impl under its own name, from a list computed at run time
# (torch._numpy._ufuncs' idiom): which names facts cannot follow
import inspect

from . import _impl

for _name, _fn in inspect.getmembers(_impl, inspect.isfunction):
    vars()[_name] = _fn
