# R26: the discovery in a function called at import time, the head from an f-string: the
# known start of the name ("cnaffix_ext_") is outside the analysed package. Then a cycle:
# func_other reads PLUGINS before it is bound.
import importlib
from importlib.metadata import distributions


def discover():
    found = []
    for dist in distributions():
        name = dist.metadata.get("Name", "")
        if name.startswith("ext-") and name.endswith("-cnaffix"):
            try:
                found.append(importlib.import_module(f"cnaffix_{name.replace('-', '_')}"))
            except ImportError:
                pass
    return found


discover()

from cnaffix import func_other  # noqa: E402,F401

PLUGINS = ()
