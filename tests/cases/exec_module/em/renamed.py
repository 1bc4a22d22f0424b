import importlib.util
import os

# a file run under another module's name: its relative imports would resolve elsewhere
spec = importlib.util.spec_from_file_location(
    "em_copy", os.path.join(os.path.dirname(__file__), "base.py"))
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
