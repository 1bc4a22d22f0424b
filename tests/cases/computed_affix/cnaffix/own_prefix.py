# R26: a known start that an analysed name also has ("cnaf": "cnaffix"): which module it
# imports is not known, so the outcome is not either.
import importlib
from importlib.metadata import distributions

for dist in distributions():
    name = dist.metadata.get("Name", "")
    if name.startswith("cnaf"):
        try:
            importlib.import_module(name.replace("-", "_"))
        except ImportError:
            pass
