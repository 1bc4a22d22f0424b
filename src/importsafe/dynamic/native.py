"""The native libraries a fork runner's zygote may load before any job (bare mode's speed).

A package's extension module (`torch/_C.so`) often links large shared libraries that ship
with it (`torch/lib/libtorch_cpu.so`): loading them costs time in every bare-mode child,
for code that is not Python. A library that names no Python C-API symbol cannot run Python
code or see `sys.modules`, so loading it early cannot change what any import does; the zygote
loads those once (`probe._import_externals`) and every job forks with them mapped.

Kept: the package's own libraries (inside its directory, found through the `RPATH` /
`RUNPATH` of an extension module or of another kept library, as the dynamic loader finds
them) whose dynamic string table names no `Py*` / `_Py*` symbol and none of whose
dependencies is excluded or is a libpython. System libraries are not read (the loader brings
them in as usual). ELF only; elsewhere the list is empty. Reads headers and string tables,
never runs anything. Hand-written: no stdlib reader for ELF dynamic sections, and the three
fields needed (NEEDED, RPATH/RUNPATH, the string table) do not justify a dependency.
"""
from __future__ import annotations

import os
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..static.files import open_regular
from .probe import package_files

SHT_DYNAMIC = 6
DT_NEEDED, DT_RPATH, DT_RUNPATH = 1, 15, 29
PY_MARKS = (b"\0Py", b"\0_Py")  # a C-API symbol (defined or used); conservative
EXTENSION_MARK = b"\0PyInit_"  # what makes a shared object an extension module
MAX_DYNAMIC = 1 << 20  # bytes: a dynamic section is a few hundred entries


@dataclass(frozen=True, slots=True)
class Dynamic:
    """What the loader reads of one shared object."""

    needed: tuple[str, ...]
    search: tuple[str, ...]  # RUNPATH (or RPATH) directories, $ORIGIN expanded
    python: bool  # names a Python C-API symbol
    extension: bool  # defines PyInit_*: an extension module


def read_dynamic(path: str) -> Dynamic | None:
    """The dynamic section of the ELF shared object at `path`; None if it is not one or
    cannot be read."""
    try:
        with os.fdopen(open_regular(path), "rb") as f:  # a FIFO named x.so must not block
            return _parse(f, os.path.dirname(path))
    except (OSError, struct.error, ValueError, IndexError):
        return None


def _parse(f, origin: str) -> Dynamic | None:
    head = f.read(64)
    if head[:4] != b"\x7fELF" or head[4] not in (1, 2) or head[5] not in (1, 2):
        return None
    wide, end = head[4] == 2, "<" if head[5] == 1 else ">"
    if wide:
        (shoff,), (entsize, count) = struct.unpack_from(end + "Q", head, 0x28), \
            struct.unpack_from(end + "HH", head, 0x3A)
        section = end + "IIQQQQIIQQ"
    else:
        (shoff,), (entsize, count) = struct.unpack_from(end + "I", head, 0x20), \
            struct.unpack_from(end + "HH", head, 0x2E)
        section = end + "IIIIIIIIII"
    f.seek(shoff)
    table = f.read(entsize * count)
    sections = [struct.unpack_from(section, table, i * entsize) for i in range(count)]
    dynamic = next((s for s in sections if s[1] == SHT_DYNAMIC), None)
    if dynamic is None or dynamic[5] > MAX_DYNAMIC:
        return None
    f.seek(dynamic[4])
    entries = f.read(dynamic[5])
    strtab = sections[dynamic[6]]
    f.seek(strtab[4])
    strings = f.read(strtab[5])
    needed: list[str] = []
    runpath: list[str] = []
    rpath: list[str] = []
    pair = end + ("qQ" if wide else "iI")
    usable = len(entries) - len(entries) % struct.calcsize(pair)
    for tag, value in struct.iter_unpack(pair, entries[:usable]):
        if tag == 0:
            break
        if tag in (DT_NEEDED, DT_RPATH, DT_RUNPATH):
            text = strings[value:strings.index(b"\0", value)].decode("utf-8", "replace")
            {DT_NEEDED: needed, DT_RPATH: rpath, DT_RUNPATH: runpath}[tag].append(text)
    search = tuple(d.replace("${ORIGIN}", origin).replace("$ORIGIN", origin)
                   for entry in (runpath or rpath) for d in entry.split(":") if d)
    return Dynamic(tuple(needed), search, any(m in strings for m in PY_MARKS),
                   EXTENSION_MARK in strings)


def _shared_objects(roots: Iterable[str], tops: Iterable[str]) -> Iterator[str]:
    """Real paths of the `.so` files of the top-level packages `tops` under `roots`."""
    for path in package_files(roots, tops, lambda name: name.endswith(".so") or ".so." in name):
        yield os.path.realpath(path)


def _inside(path: str, dirs: tuple[str, ...]) -> bool:
    return any(path == d or path.startswith(d + os.sep) for d in dirs)


def preloadable(roots: Iterable[str], tops: Iterable[str]) -> list[str]:
    """The package libraries the zygote may load, dependencies first."""
    roots, tops = list(roots), sorted(tops)
    homes = tuple(os.path.realpath(os.path.join(r, t)) for r in roots for t in tops
                  if os.path.isdir(os.path.join(r, t)))
    read: dict[str, Dynamic | None] = {}

    def info(path: str) -> Dynamic | None:
        if path not in read:
            read[path] = read_dynamic(path)
        return read[path]

    def find(name: str, of: Dynamic) -> str | None:
        if "/" in name:
            return None
        for d in of.search:
            candidate = os.path.realpath(os.path.join(d, name))
            if os.path.isfile(candidate):
                return candidate if _inside(candidate, homes) else None
        return None

    safe: dict[str, bool] = {}
    order: list[str] = []

    def visit(path: str) -> bool:
        if path in safe:
            return safe[path]
        safe[path] = False  # a cycle of NEEDED entries: not kept
        lib = info(path)
        ok = lib is not None and not lib.python
        for name in lib.needed if lib is not None else ():
            dep = find(name, lib)
            if "python" in name.lower() or (dep is not None and not visit(dep)):
                ok = False
        safe[path] = ok
        if ok:
            order.append(path)
        return ok

    for path in _shared_objects(roots, tops):
        ext = info(path)
        if ext is not None and ext.extension:
            for name in ext.needed:
                dep = find(name, ext)
                if dep is not None:
                    visit(dep)
    return order
