# the distribution's metadata says 1.4.2: the 2.x branch never runs
import importlib.metadata

if importlib.metadata.version("fakedep").startswith("2."):
    from depver.h import H  # noqa: F401
G = 1
