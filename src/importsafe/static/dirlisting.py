"""What the file-system calls of plugin discovery return, over the listings read at check time
(discover.read_listings): `os.listdir`, `os.scandir`, `glob.glob` / `iglob`, `Path.iterdir`
/ `Path.glob` over a module's own directory, `os.path.isfile` / `isdir` / `exists` on its
entries, and the string functions of `os.path`; as builtins purefn may call. Pure: the
listings are data handed in.

An unsorted listing comes in the order os.scandir gave when the check ran (the order CPython
sees on this machine): `Listings.unsorted` collects each such read, for the simulator to
record as an assumption. A listing wrapped in `sorted(...)` right away is no such read
(purefn tells the call). Where CPython may write `__pycache__` into the directory before the
code runs (it has none yet and can be written to), `Listings.variant` puts it there: none
(0), first (1), last (2); the simulator evaluates each and takes the value only when all
agree.
"""
from __future__ import annotations

import fnmatch
import posixpath

from .configfiles import CONFIG_CLASSES, new_parser
from .purefn import NoValue, PureObject, _Builtin

PYCACHE = "__pycache__"
STD_MODULES = frozenset({"os", "os.path", "glob", "posixpath", "pathlib", "configparser"})
# the functions modelled, by qualified name; os.path's are posixpath's (the target is Linux)
_STRING_FUNCTIONS = {"basename", "dirname", "join", "splitext", "split", "normpath",
                     "abspath", "realpath"}
_LISTING_FUNCTIONS = {"os.listdir": "listdir", "os.scandir": "scandir", "glob.glob": "glob",
                      "glob.iglob": "glob"}
_TESTS = {"isfile", "isdir", "exists"}
STD_FUNCTIONS = frozenset({f"{m}.{f}" for m in ("os.path", "posixpath")
                           for f in _STRING_FUNCTIONS | _TESTS} | set(_LISTING_FUNCTIONS) |
                          {"pathlib.Path", "typing.cast"} | set(CONFIG_CLASSES))


_OPAQUE = ("v",)  # state.OPAQUE


def std_value(qualified: str) -> tuple:
    """What the simulator holds for the library module or function `qualified` (imported
    from outside the analysed code): ("std", name) when this module models it, else an
    opaque value."""
    if qualified in STD_MODULES or qualified in STD_FUNCTIONS or qualified in REPLAYED:
        return ("std", qualified)
    return _OPAQUE


# library names the simulator itself models (not purefn): `functools.partial` of an
# analysed function, whose calls replay it (callreplay.py)
REPLAYED = frozenset({"functools", "functools.partial"})


class Listings:
    """The listings one evaluation may read: those of `allowed` (the directory of the module
    whose code lists, as its results are keyed on that listing) and of the packages directly
    in it, and what it read."""

    def __init__(self, listings, variant: int = 0):
        self.listings = listings  # normalised directory -> discover.DirListing
        self.variant = variant
        self.unsorted: dict[str, str] = {}  # directory -> the call that read it unsorted
        self.pycache = False  # a listing read could hold __pycache__ when the code runs
        self.refused: str | None = None  # why a listing could not be given
        # directories of packages whose `__file__` the evaluation read: the result is keyed
        # on their listings too (store/results.py fingerprints a package with its listing)
        self.packages: set[str] = set()

    def entries(self, directory: str, allowed: str, call: str) -> tuple:
        path = posixpath.normpath(directory)
        # (a package directly in the module's directory: results are keyed on its listing
        # too, store/results.py)
        mine = path == allowed or path in self.packages or \
            posixpath.dirname(path) == allowed and path in self.listings
        found = self.listings.get(path) if mine else None
        if found is None:
            self.refused = f"{call}() of {path}: " + (
                "not the directory of the module that lists it or of a package it was "
                "given" if not mine else "its listing could not be read at check time")
            raise NoValue(self.refused)
        entries = found.entries
        if found.pycache:
            self.pycache = True
            if self.variant == 1:
                entries = ((PYCACHE, "d"),) + entries
            elif self.variant == 2:
                entries = entries + ((PYCACHE, "d"),)
        return entries

    def real_path(self, path: str, allowed: str | None) -> str:
        """os.path.realpath of the allowed directory or an entry of it that is no symlink
        (the listing says whether the directory's own path has one)."""
        path = posixpath.normpath(path)
        found = self.listings.get(allowed) if allowed is not None else None
        if found is None or not found.real or not path.startswith("/") or (
                path != allowed and posixpath.dirname(path) != allowed) or (
                path != allowed and (self.kind(path, allowed, "realpath") not in ("f", "d")
                                     or posixpath.basename(path) in found.links)):
            raise NoValue("realpath() of a path that may be a symlink")
        return path

    def text(self, path: str, allowed: str, call: str) -> bytes | None:
        """The bytes of a configuration file in an allowed directory as read at check time,
        None when there is no such file (or a directory); NoValue when they were not read."""
        kind = self.kind(path, allowed, call)
        if kind != "f":
            return None
        directory, name = posixpath.split(posixpath.normpath(path))
        data = self.listings[directory].text(name)
        if data is None:
            raise NoValue(f"{call}() of {path}: not read at check time (too large, or not "
                          "named as a configuration file)")
        return data

    def kind(self, path: str, allowed: str, call: str) -> str | None:
        """"f", "d", "" or None (no such entry) of a path in an allowed directory."""
        path = posixpath.normpath(path)
        directory, name = posixpath.split(path)
        for entry, kind in self.entries(directory, allowed, call):
            if entry == name:
                return kind
        return None


class StdFunction(_Builtin):
    """One modelled function of os, os.path or glob, bound to the listings of an
    evaluation and the directory its caller may list."""

    __slots__ = ("qualified", "listings", "allowed")
    takes_sorting = True

    def __init__(self, qualified: str, listings: Listings | None, allowed: str | None):
        super().__init__(qualified)
        self.qualified, self.listings, self.allowed = qualified, listings, allowed

    def run(self, run, args, kwargs):
        if self.qualified in CONFIG_CLASSES:
            return new_parser(self.qualified, args, kwargs, self.listings, self.allowed)
        if self.qualified == "pathlib.Path":
            if kwargs or not args or not all(isinstance(a, (str, PathValue)) for a in args):
                raise NoValue("Path() arguments")
            return PathValue(posixpath.join(*map(str, args)), self.listings, self.allowed)
        if kwargs or not args or not all(isinstance(a, str) for a in args):
            raise NoValue(f"{self.qualified}() arguments")
        module, _, name = self.qualified.rpartition(".")
        if module in ("os.path", "posixpath"):
            if name in _TESTS:
                return self._test(name, args)
            if name == "realpath":
                return self._real(args)
            return _string_function(name, args)
        listing = self.listings
        if listing is None:
            raise NoValue(f"{self.qualified}()")
        kind = _LISTING_FUNCTIONS[self.qualified]
        sorting = run.take_sorting()
        if kind == "glob":
            found = self._glob(args)
        elif len(args) != 1:
            raise NoValue(f"{self.qualified}() arguments")
        else:
            entries = listing.entries(args[0], self.allowed, self.qualified)
            found = [n for n, _ in entries] if kind == "listdir" else \
                [DirEntry(n, posixpath.join(args[0], n), k) for n, k in entries]
        if not sorting:
            listing.unsorted.setdefault(posixpath.normpath(posixpath.dirname(args[0]) if
                                        kind == "glob" else args[0]), self.qualified)
        return found

    def _real(self, args):
        if len(args) != 1 or self.listings is None:
            raise NoValue("realpath()")
        return self.listings.real_path(args[0], self.allowed)

    def _test(self, name: str, args):
        if len(args) != 1 or self.listings is None or self.allowed is None:
            raise NoValue(f"os.path.{name}()")
        path = posixpath.normpath(args[0])
        if path == self.allowed:
            return name != "isfile"
        kind = self.listings.kind(path, self.allowed, f"os.path.{name}")
        return kind is not None if name == "exists" else kind == name[2]

    def _glob(self, args):
        if len(args) != 1:
            raise NoValue("glob() arguments")
        pattern = args[0]
        directory, base = posixpath.split(pattern)
        if not directory or _magic(directory):
            raise NoValue("glob() of a pattern over more than one directory")
        return [posixpath.join(directory, n) for n, _ in _globbed(
            self.listings, directory, base, self.allowed, "glob.glob")]


def _globbed(listings: Listings, directory: str, base: str, allowed: str, call: str,
             hidden: bool = False) -> list:
    """The (name, kind) entries of `directory` a one-level glob pattern matches, in the
    listing's order: hidden files only for a pattern that starts with a dot (glob), or
    always (`hidden`: pathlib's glob matches them as any other name)."""
    if not base or "/" in base or "**" in base:
        raise NoValue(f"{call}() of a pattern over more than one directory")
    entries = listings.entries(directory, allowed, call)
    if not _magic(base):  # the one path, when it exists
        return [(n, k) for n, k in entries if n == base]
    return [(n, k) for n, k in entries if (hidden or base.startswith(".") or
                                           not n.startswith(".")) and fnmatch.fnmatchcase(n, base)]


def _magic(text: str) -> bool:
    return any(c in text for c in "*?[")


def _string_function(name: str, args):
    if name == "join":
        return posixpath.join(*args)
    if len(args) != 1:
        raise NoValue(f"os.path.{name}() arguments")
    path = args[0]
    if name == "abspath":
        if not path.startswith("/"):
            raise NoValue("abspath() of a relative path (the working directory)")
        return posixpath.normpath(path)
    return getattr(posixpath, name)(path)


class DirEntry(PureObject):
    """An os.DirEntry of a listing: `name`, `path`, `is_file()`, `is_dir()`."""

    __slots__ = ("name", "path", "kind")

    def __init__(self, name: str, path: str, kind: str):
        self.name, self.path, self.kind = name, path, kind

    def __eq__(self, other):
        return other.__class__ is DirEntry and (self.name, self.path, self.kind) == (
            other.name, other.path, other.kind)

    def __hash__(self):
        return hash((self.name, self.path, self.kind))

    def attribute(self, attr: str):
        if attr in ("name", "path"):
            return getattr(self, attr)
        raise NoValue(f"DirEntry.{attr}")

    def call(self, method: str, args, sorting: bool = False):
        if method in ("is_file", "is_dir") and not args:
            return self.kind == method[3]
        raise NoValue(f"DirEntry.{method}()")


class PathValue(PureObject):
    """A pathlib.Path: `name`, `stem`, `suffix`, `parent`, `/`, str(); `is_file()`,
    `is_dir()`, `exists()`, `iterdir()` and `glob(pattern)` over the allowed listing."""

    __slots__ = ("path", "listings", "allowed", "kind")

    def __init__(self, path: str, listings: Listings | None, allowed: str | None,
                 kind: str | None = None):
        self.path = posixpath.normpath(path) if path else "."
        self.listings, self.allowed = listings, allowed
        self.kind = kind  # known from the listing that made it, else looked up

    def __eq__(self, other):
        return other.__class__ is PathValue and self.path == other.path

    def __hash__(self):
        return hash(self.path)

    def __lt__(self, other):  # as pathlib orders paths: by their parts
        if other.__class__ is not PathValue:
            return NotImplemented
        return self._parts() < other._parts()

    def _parts(self) -> tuple:
        return tuple(self.path.split("/"))

    def _child(self, name: str, kind: str | None = None) -> "PathValue":
        return PathValue(posixpath.join(self.path, name), self.listings, self.allowed, kind)

    def text(self) -> str:
        return self.path

    def attribute(self, attr: str):
        name = posixpath.basename(self.path)
        if attr == "name":
            return name
        if attr == "suffix" or attr == "stem":
            stem, suffix = posixpath.splitext(name)
            return suffix if attr == "suffix" else stem
        if attr == "parent":
            return PathValue(posixpath.dirname(self.path) or ".", self.listings, self.allowed)
        raise NoValue(f"Path.{attr}")

    def binop(self, op: str, other):
        if op == "/" and isinstance(other, (str, PathValue)):
            return PathValue(posixpath.join(self.path, str(other)), self.listings, self.allowed)
        raise NoValue(f"Path {op}")

    def call(self, method: str, args, sorting: bool = False):
        listings, allowed = self.listings, self.allowed
        if listings is None or allowed is None:
            raise NoValue(f"Path.{method}()")
        if method in ("resolve", "absolute") and not args:
            if not self.path.startswith("/"):
                raise NoValue(f"Path.{method}() of a relative path")
            if method == "resolve":
                listings.real_path(self.path, allowed)
            return self
        if method in ("is_file", "is_dir", "exists") and not args:
            kind = self.kind
            if kind is None:
                kind = "d" if self.path == allowed else listings.kind(self.path, allowed,
                                                                       f"Path.{method}")
            return kind is not None if method == "exists" else kind == method[3]
        if method == "iterdir" and not args:
            found = [self._child(n, k) for n, k in listings.entries(self.path, allowed,
                                                                     "Path.iterdir")]
        elif method == "glob" and len(args) == 1 and isinstance(args[0], str):
            found = [self._child(n, k) for n, k in _globbed(listings, self.path, args[0],
                                                              allowed, "Path.glob", True)]
        else:
            raise NoValue(f"Path.{method}()")
        if not sorting:
            listings.unsorted.setdefault(self.path, f"Path.{method}")
        return found
