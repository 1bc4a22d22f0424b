"""pathlib: a sorted glob over the resolved directory, then its subpackages by iterdir (the
file system's order)."""
import importlib
from pathlib import Path

for _p in sorted(Path(__file__).resolve().parent.glob("*.py")):
    if _p.stem != "__init__":
        importlib.import_module(f".{_p.stem}", __name__)

_here = Path(__file__).parent
for _q in _here.iterdir():
    if _q.is_dir() and not _q.name.startswith("_"):
        importlib.import_module("." + _q.name, __package__)
