import importlib
import os

PLUGIN_DIR = os.path.join(os.path.dirname(__file__), "plugins")
for f in sorted(os.listdir(PLUGIN_DIR)):
    if not f.endswith(".py") or f == "__init__.py":
        continue
    importlib.import_module("sdo.plugins." + f[:-3])
DONE = True
