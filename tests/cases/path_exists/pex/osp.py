import os

_here = os.path.dirname(__file__)
if not os.path.isdir(os.path.join(_here, "plugins")):
    raise ImportError("no plugins directory")
