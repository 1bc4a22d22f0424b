"""The caches' values as plain data (tagged tuples), and their on-disk files.

Nothing stored can run code when read: values go through `marshal` as tuples, strings,
numbers, frozensets and dicts only, and each object is rebuilt by the constructor of a class
in a fixed list (`CLASSES`; its index is the tag). A file starts with a header line naming
importsafe's version and, per section, its length and checksum, and is read only when it is
a regular file owned by the current user and writable by nobody else (store/safety.py).

Encoders and decoders are generated per class (one function naming each field), as pickle's
constructor path was: naming each slot is the fastest way to read or fill slots from Python.
"""
from __future__ import annotations

import marshal
import sys
import zlib

from ..model import Assumption, Diagnostic, ErrorInfo, Frame, Report, Result
from ..static.discover import ModuleInfo
from ..static.events import (Bind, Call, ClassBody, Def, Del, Dynamic, Exit, FileProblem,
                             FunctionFacts, Handler, If, Import, ImportFrom, ModuleFacts, Raise,
                             SetAttr, SetItem, Try, Use, ComputedImport, GetAttr, ForEach,
                             Jump, ExecFile, ExecSource, Escape)

MARSHAL_VERSION = 4
MAGIC = b"importsafe-cache"
# a section holds tuples of plain values only: no code objects, where marshal can refuse them
_LOADS_KW = {"allow_code": False} if sys.version_info >= (3, 13) else {}

CLASSES = (Import, ImportFrom, Use, Call, Bind, SetAttr, Del, Dynamic, Exit, Raise, If, Handler,
           Try, FunctionFacts, Def, ClassBody, FileProblem, ModuleFacts, Frame, ErrorInfo,
           Result, Diagnostic, Report, ModuleInfo, ComputedImport, GetAttr, ForEach, Jump,
           Assumption, ExecFile, ExecSource, SetItem, Escape)
# fields that hold objects of CLASSES: "many" a tuple of them (or None), "one" one or None;
# every other field is a plain value
NESTED = {
    If: {"body": "many", "orelse": "many"},
    Handler: {"body": "many"},
    Try: {"body": "many", "handlers": "many", "orelse": "many", "final": "many"},
    FunctionFacts: {"body": "many"},
    Def: {"func": "one"},
    ClassBody: {"body": "many", "init": "one"},
    ForEach: {"body": "many"},
    ModuleFacts: {"body": "many", "problem": "one"},
    ErrorInfo: {"chain": "many"},
    Result: {"error": "one", "assumes": "many"},
    Report: {"results": "many", "diagnostics": "many"},
}


class CacheFormatError(ValueError):
    """A stored value that is not what importsafe writes: refused."""


def _fields(cls) -> tuple[str, ...]:
    return tuple(cls.__dataclass_fields__)


def _build():
    encoders: dict = {}
    decoders: list = []
    scope = {"_E": encoders, "_D": decoders, "_new": object.__new__, "tuple": tuple}
    lines = []
    for tag, cls in enumerate(CLASSES):
        names = _fields(cls)
        kinds = NESTED.get(cls, {})
        scope[f"_cls{tag}"] = cls
        for n in names:
            scope[f"_set{tag}_{n}"] = getattr(cls, n).__set__
        enc = []
        for n in names:
            kind = kinds.get(n)
            if kind == "many":
                enc.append(f"None if o.{n} is None else "
                           f"tuple([_E[x.__class__](x) for x in o.{n}])")
            elif kind == "one":
                enc.append(f"None if o.{n} is None else _E[o.{n}.__class__](o.{n})")
            else:
                enc.append(f"o.{n}")
        lines.append(f"def _enc{tag}(o):\n    return ({tag}, {', '.join(enc)})\n")
        dec = [f"def _dec{tag}(t):\n    _, {', '.join(names)}{',' if len(names) == 1 else ''}"
               f" = t\n    self = _new(_cls{tag})\n"]
        for n in names:
            kind = kinds.get(n)
            if kind == "many":
                value = f"None if {n} is None else tuple([_D[x[0]](x) for x in {n}])"
            elif kind == "one":
                value = f"None if {n} is None else _D[{n}[0]]({n})"
            else:
                value = n
            dec.append(f"    _set{tag}_{n}(self, {value})\n")
        dec.append("    return self\n")
        lines.append("".join(dec))
    exec("".join(lines), scope)  # noqa: S102 - generated from our own field names
    for tag, cls in enumerate(CLASSES):
        encoders[cls] = scope[f"_enc{tag}"]
        decoders.append(scope[f"_dec{tag}"])
    return encoders, tuple(decoders)


_ENCODERS, _DECODERS = _build()
_decoders_list = list(_DECODERS)


def encode(obj):
    """An object of CLASSES as nested tuples of plain values."""
    return _ENCODERS[obj.__class__](obj)


def decode(data):
    """The object `encode` made `data` from; CacheFormatError for anything else."""
    try:
        tag = data[0]
        if tag.__class__ is not int or tag < 0:
            raise CacheFormatError("not an encoded object")
        return _DECODERS[tag](data)
    except CacheFormatError:
        raise
    except Exception as exc:  # noqa: BLE001 - any malformed value
        raise CacheFormatError(f"malformed value: {exc.__class__.__name__}") from None


def encode_many(objs) -> tuple:
    return tuple([_ENCODERS[x.__class__](x) for x in objs])


def decode_many(data) -> tuple:
    try:
        return tuple([_DECODERS[x[0]](x) for x in data])
    except Exception as exc:  # noqa: BLE001 - any malformed value
        raise CacheFormatError(f"malformed value: {exc.__class__.__name__}") from None


# --- files ------------------------------------------------------------------------------

def _version() -> bytes:
    from .. import __version__  # here: the package's __init__ may not have run (bare)
    return __version__.encode("ascii", "replace").replace(b" ", b"_")


def pack(kind: str, *sections) -> bytes:
    """A cache file: the header line, then each section (plain values) marshalled."""
    blobs = [marshal.dumps(s, MARSHAL_VERSION) for s in sections]
    index = b",".join(b"%d:%08x" % (len(b), zlib.crc32(b)) for b in blobs)
    return b" ".join((MAGIC, _version(), kind.encode(), index)) + b"\n" + b"".join(blobs)


class Sections:
    """The sections of a cache file, each checked and unmarshalled when first asked for."""

    __slots__ = ("data", "spans")

    def __init__(self, data: bytes, kind: str, complete: bool = True):
        """`complete` False: `data` may be the file's beginning only (its header, and the
        sections that fit in it)."""
        end = data.find(b"\n", 0, 4096)
        head = data[:end].split(b" ") if end > 0 else []
        if len(head) != 4 or head[0] != MAGIC:
            raise CacheFormatError("not an importsafe cache file")
        if head[1] != _version():
            raise CacheFormatError("written by importsafe " + head[1].decode("ascii", "replace"))
        if head[2] != kind.encode():
            raise CacheFormatError("a cache file of another kind")
        self.data = data
        self.spans = []
        at = end + 1
        try:
            for item in head[3].split(b","):
                size, crc = item.split(b":")
                self.spans.append((at, at + int(size), int(crc, 16)))
                at += int(size)
        except ValueError:
            raise CacheFormatError("malformed header") from None
        if at != len(data) and (complete or at < len(data)):
            raise CacheFormatError("truncated or padded")

    def end(self, i: int) -> int:
        """Where section i ends in the file."""
        return self.spans[i][1]

    def __getitem__(self, i: int):
        start, end, crc = self.spans[i]
        if end > len(self.data):
            raise CacheFormatError("truncated")
        blob = memoryview(self.data)[start:end]
        if zlib.crc32(blob) != crc:
            raise CacheFormatError("checksum mismatch")
        try:
            return marshal.loads(blob, **_LOADS_KW)
        except (ValueError, EOFError, TypeError) as exc:
            raise CacheFormatError(f"unreadable section: {exc}") from None

    def __len__(self) -> int:
        return len(self.spans)
