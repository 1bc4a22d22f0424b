from pathlib import Path

# the data directory is in the tree: the guard does not fire
if not (Path(__file__).parent / "data").exists():
    raise OSError("the data directory is missing")
HAVE_DATA = True
