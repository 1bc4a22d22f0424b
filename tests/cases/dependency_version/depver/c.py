# metaonly is installed as metadata only (2.1.0): the import for 3.x never runs
from importlib.metadata import version

if version("metaonly") >= "3":
    from depver.d import D  # noqa: F401
C = 1
