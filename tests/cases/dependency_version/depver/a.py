# fakedep 1.4.2 (its _version.py): the 1.x branch runs, and meets the cycle
import fakedep

if fakedep.__version__.startswith("1."):
    from depver.b import B  # noqa: F401
A = 1
