# binds its names dynamically, then imports a module that reads one back while this one is
# still running: bound by then in CPython, but facts cannot tell, so it stays unknown
import inspect

from . import _impl

for _name, _fn in inspect.getmembers(_impl, inspect.isfunction):
    globals()[_name] = _fn

from . import reads_running  # noqa: E402,F401
