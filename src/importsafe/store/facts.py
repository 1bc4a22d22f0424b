"""Facts cached by file content (IO edge).

Key: the source bytes' digest, the module's name, path and kind, the target version, whether function
bodies were extracted, and a fingerprint of the extractor's own code (so a new importsafe, or
an edited extractor, never reads old facts). One file per key, written to a temporary file and
renamed into place: concurrent runs never see a half-written entry, and a corrupt or
unreadable entry is a miss.
"""
from __future__ import annotations

import os
import pickle
from functools import lru_cache

from .runs import write_pickles
from ..static.events import ModuleFacts

_EXTRACTOR = ("events.py", "exprs.py", "facts.py", "prune.py", "conditions.py", "lower.py")


@lru_cache(maxsize=1)
def extractor_fingerprint() -> str:
    import hashlib  # here, not at module level: loading OpenSSL slows every start
    from .. import __version__
    digest = hashlib.sha256(__version__.encode())
    here = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "static")
    for name in _EXTRACTOR:
        with open(os.path.join(here, name), "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:16]


class FactsCache:
    """A directory of pickled ModuleFacts; a plain value, so worker processes can use it.
    `summaries`: path -> the summary (events.summary, digest included) of the files the run
    cache saw unchanged since that digest was taken (runcache.py): they are not read at all,
    and their facts are loaded only when a simulation reads them (LazyFacts)."""

    def __init__(self, directory: str, summaries: dict[str, ModuleFacts] | None = None):
        self.directory = directory
        self.summaries = summaries or {}

    def key(self, digest: str, name: str, path: str, kind: str, version, bodies: bool) -> str:
        """`digest`: the source's sha256 (hex)."""
        import hashlib
        return hashlib.sha256(repr((digest, extractor_fingerprint(), name, path, kind,
                                    tuple(version), bodies)).encode()).hexdigest()

    def _file(self, key: str) -> str:
        return os.path.join(self.directory, key[:2], key[2:] + ".pickle")

    def get(self, key: str) -> ModuleFacts | PickledFunctions | None:
        try:
            with open(self._file(key), "rb") as f:
                found = pickle.load(f)
        except Exception:  # noqa: BLE001 - missing, unreadable or corrupt: a miss
            return None
        return found if isinstance(found, (ModuleFacts, PickledFunctions)) else None

    def put(self, key: str, value: ModuleFacts | PickledFunctions) -> None:
        write_pickles(self._file(key), value)

    @staticmethod
    def pack_functions(functions: dict) -> "PickledFunctions":
        """What `put` keeps of a module's functions (read back one at a time)."""
        return PickledFunctions.of(functions)


class PickledFunctions:
    """(name, line) -> FunctionFacts, each function kept pickled until its first get: loading
    a module's bodies for the one function called at import time then costs that function."""

    __slots__ = ("blobs", "loaded")

    def __init__(self, blobs: dict):
        self.blobs = blobs  # (name, line) -> pickled FunctionFacts
        self.loaded: dict = {}

    @classmethod
    def of(cls, functions: dict) -> "PickledFunctions":
        return cls({key: pickle.dumps(func, protocol=pickle.HIGHEST_PROTOCOL)
                    for key, func in functions.items()})

    def get(self, key, default=None):
        found = self.loaded.get(key)
        if found is None:
            blob = self.blobs.get(key)
            if blob is None:
                return default
            found = self.loaded[key] = pickle.loads(blob)
        return found

    def __reduce__(self):
        return PickledFunctions, (self.blobs,)
