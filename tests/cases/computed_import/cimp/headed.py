# R20: a name that cannot be spelled but starts with a package outside the analysed code
# ("json.") is an import of that package: assumed importable, as its import statements are
import importlib

SUFFIX = "decoder "
mod = importlib.import_module(f"json.{SUFFIX.strip()}")
