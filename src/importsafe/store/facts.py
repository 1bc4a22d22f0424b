"""Facts cached by file content (IO edge).

Key: the source bytes' digest, the module's name, path and kind, the target version, the
environment variables given (--env: facts decide tests on them), whether function bodies
were extracted, and a fingerprint of the extractor's own code (so a new
importsafe, or an edited extractor, never reads old facts). One file per key, in the plain
data format of codec.py, written to a temporary file and renamed into place: concurrent runs
never see a half-written entry; a missing entry is a miss, and a refused one (corrupt, not
the user's, see safety.py) a miss with a warning.
"""
from __future__ import annotations

import marshal
import os
from functools import lru_cache

from . import codec, safety
from ..static.events import ModuleFacts

# every module of static/ the fact extractor runs: a change to any of them changes facts
_EXTRACTOR = ("events.py", "exprs.py", "facts.py", "facts_bindings.py", "facts_flow.py",
              "facts_imports.py", "execfile.py", "helpers.py", "shapes.py", "skim.py",
              "prune.py", "conditions.py", "lower.py", "problems.py", "purefn.py")
KIND_FACTS, KIND_FUNCTIONS = "facts", "functions"


@lru_cache(maxsize=1)
def extractor_fingerprint() -> str:
    import hashlib  # here, not at module level: loading OpenSSL slows every start
    from .. import __version__
    digest = hashlib.sha256(__version__.encode())
    here = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "static")
    for name in _EXTRACTOR:
        try:
            with open(os.path.join(here, name), "rb") as f:
                digest.update(f.read())
        except FileNotFoundError:
            continue
    return digest.hexdigest()[:16]


class FactsCache:
    """A directory of encoded ModuleFacts; a plain value, so worker processes can use it.
    `summaries`: path -> the summary (events.summary, digest included) of the files the run
    cache saw unchanged since that digest was taken (runs.py): they are not read at all,
    and their facts are loaded only when a simulation reads them (LazyFacts)."""

    def __init__(self, directory: str, summaries: dict[str, ModuleFacts] | None = None):
        self.directory = directory
        self.summaries = summaries or {}
        why = safety.check_root(directory)
        self.usable = why is None
        if why is not None:
            safety.warn(directory, why)

    def key(self, digest: str, name: str, path: str, kind: str, version, bodies: bool,
            env: tuple = ()) -> str:
        """`digest`: the source's sha256 (hex); `env`: ((name, value), ...) given."""
        import hashlib
        return hashlib.sha256(repr((digest, extractor_fingerprint(), name, path, kind,
                                    tuple(version), bodies, tuple(env))).encode()).hexdigest()

    def _file(self, key: str) -> str:
        return os.path.join(self.directory, key[:2], key[2:] + ".facts")

    def get(self, key: str) -> ModuleFacts | EncodedFunctions | None:
        if not self.usable:
            return None
        data = safety.read_file(self._file(key), self.directory)
        if data is None:
            return None
        try:
            sections = codec.Sections(data, "facts")
            kind, value = sections[0]
            if kind == KIND_FACTS:
                found = codec.decode(value)
                return found if found.__class__ is ModuleFacts else None
            if kind == KIND_FUNCTIONS and value.__class__ is dict:
                return EncodedFunctions(value)
            raise codec.CacheFormatError("unknown entry")
        except (codec.CacheFormatError, TypeError, ValueError) as exc:
            safety.warn(self.directory, f"entry refused: {exc}")
            return None

    def put(self, key: str, value: ModuleFacts | EncodedFunctions) -> None:
        if not self.usable:
            return
        if isinstance(value, EncodedFunctions):
            section = (KIND_FUNCTIONS, value.blobs)
        else:
            section = (KIND_FACTS, codec.encode(value))
        try:
            data = codec.pack("facts", section)
        except ValueError:  # a value marshal cannot hold, or nested too deep: not cached
            return
        safety.write_file(self._file(key), data, self.directory)

    @staticmethod
    def pack_functions(functions: dict) -> "EncodedFunctions":
        """What `put` keeps of a module's functions (read back one at a time)."""
        return EncodedFunctions.of(functions)


class EncodedFunctions:
    """(name, line) -> FunctionFacts, each function kept encoded until its first get: loading
    a module's bodies for the one function called at import time then costs that function."""

    __slots__ = ("blobs", "loaded")

    def __init__(self, blobs: dict):
        self.blobs = blobs  # (name, line) -> marshalled codec.encode(FunctionFacts)
        self.loaded: dict = {}

    @classmethod
    def of(cls, functions: dict) -> "EncodedFunctions":
        return cls({key: marshal.dumps(codec.encode(func), codec.MARSHAL_VERSION)
                    for key, func in functions.items()})

    def get(self, key, default=None):
        found = self.loaded.get(key)
        if found is None:
            blob = self.blobs.get(key)
            if blob is None:
                return default
            try:
                found = codec.decode(marshal.loads(blob, **codec._LOADS_KW))
            except (codec.CacheFormatError, TypeError, ValueError, EOFError):
                return default
            self.loaded[key] = found
        return found

    def __reduce__(self):
        return EncodedFunctions, (self.blobs,)
