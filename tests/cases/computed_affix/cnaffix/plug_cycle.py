# R26: the same discovery, then a cycle: plug_other reads VALUE before it is bound.
import importlib
from importlib.metadata import distributions

for dist in distributions():
    name = dist.metadata.get("Name", "")
    if name.startswith("cnaffix-ext"):
        try:
            importlib.import_module(name.replace("-", "_"))
        except ImportError:
            pass

from cnaffix import plug_other  # noqa: E402,F401

VALUE = 1
