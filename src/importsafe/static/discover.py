"""Paths -> source roots and the module name <-> file map. Reads directory listings only.

Entries are the modules under the paths the user named; every other module that the analysed
code can reach inside the same source roots is discovered too, as context.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass

SOURCE_SUFFIXES = (".py",)
OPAQUE_SUFFIXES = (".so", ".pyd", ".pyi")
EXTENSION_SUFFIXES = (".so", ".pyd")  # compiled modules: CPython's finder tries them first
LISTED_SUFFIXES = SOURCE_SUFFIXES + OPAQUE_SUFFIXES  # files that can be modules (listing_of)


@dataclass(frozen=True, slots=True)
class ModuleInfo:
    name: str
    path: str  # file for modules/packages; directory for namespace packages
    kind: str  # "module" | "package" | "namespace" | "opaque" | "opaque-package"
    root: str

    @property
    def is_package(self) -> bool:
        return self.kind in ("package", "namespace", "opaque-package")


@dataclass(frozen=True, slots=True)
class Layout:
    roots: tuple[str, ...]
    modules: tuple[ModuleInfo, ...]  # every discovered module, sorted by name
    entries: tuple[str, ...]  # modules under the requested paths, sorted
    problems: tuple[tuple[str, int, str, str], ...]  # (path, line, code, message)


def _is_ident(name: str) -> bool:
    return name.isidentifier()


def infer_root(path: str) -> str:
    """Walk up from a package directory while the parent is a regular package too."""
    d = path if os.path.isdir(path) else os.path.dirname(path)
    while os.path.isfile(os.path.join(d, "__init__.py")):
        d = os.path.dirname(d)
    return d


def module_name_for(path: str, root: str) -> str | None:
    rel = os.path.relpath(path, root)
    if rel.startswith(".."):
        return None
    parts = rel.split(os.sep)
    if parts[-1] == "__init__.py":
        parts = parts[:-1]
    elif parts[-1].endswith(".py"):
        parts[-1] = parts[-1][:-3]
    if parts == ["."] or not all(_is_ident(p) for p in parts):
        return None
    return ".".join(parts)


def package_init(directory: str, names=None) -> tuple[str, str] | None:
    """(path, kind) of a package directory's `__init__` as CPython's FileFinder picks it:
    extension modules before source (a package compiled in place by mypyc or Cython: then the
    package is opaque), or None for a directory without one. `names`: its listing, when the
    caller has it."""
    found = loaded_file(directory, "__init__", names)
    if found is None:
        return None
    return found[0], "opaque-package" if found[1] == "opaque" else "package"


def loaded_file(directory: str, stem: str, names=None) -> tuple[str, str] | None:
    """(path, kind) of the file CPython's FileFinder loads for module `stem` in `directory`
    (see chosen_files), among the names of `names` (its listing; listed now by default)
    that are files."""
    if names is None:
        try:
            names = os.listdir(directory)
        except OSError:
            return None
    names = list(names)
    name = chosen_files((n for n in names if n.partition(".")[0] == stem and
                         os.path.isfile(os.path.join(directory, n))), _built(names)).get(stem)
    if name is None:
        return None
    return os.path.join(directory, name), "module" if name.endswith(".py") else "opaque"


def _built(names) -> bool:
    return any(n.endswith(EXTENSION_SUFFIXES) for n in names)


def chosen_files(names, built: bool | None = None) -> dict[str, str]:
    """Module name -> the file among `names` CPython's FileFinder loads for it: an extension
    module (`.so`, `.pyd`; opaque) before source (`.py`); a stub (`.pyi`) alone counts as
    opaque (the module is taken to exist, as compiled ones ship stubs) unless the directory
    holds extension modules (`built`, by default from `names`): built for this platform, it
    lacks the ones a stub alone stands for (matplotlib's `_macosx.pyi` on Linux). Of several
    extension files of one name, the first by name."""
    names = sorted(names)
    if built is None:
        built = _built(names)
    best: dict[str, tuple[int, str]] = {}
    for name in names:
        stem = name.partition(".")[0]
        rank = 0 if name.endswith(EXTENSION_SUFFIXES) else 1 if name == stem + ".py" else \
            2 if name.endswith(".pyi") and not built else None
        if rank is not None and (stem not in best or rank < best[stem][0]):
            best[stem] = (rank, name)
    return {stem: name for stem, (_, name) in best.items()}


def _module_file_name(entry: os.DirEntry) -> tuple[str, str] | None:
    """(module name, kind) of a file in a package directory, or None."""
    name = entry.name
    if name.endswith(".py"):
        stem = name[:-3]
        return (stem, "module") if _is_ident(stem) and stem != "__init__" else None
    for suffix in OPAQUE_SUFFIXES:
        if name.endswith(suffix):
            stem = name[: -len(suffix)].split(".", 1)[0]
            return (stem, "opaque") if _is_ident(stem) and stem != "__init__" else None
    return None


def listing_of(entries) -> tuple:
    """What a package scan reads of a directory's listing (`os.scandir` entries, sorted by
    name): the name and type of each file that can be a module (Python source, stub or
    extension) and of each directory that can be a package (the scan skips the others,
    `__pycache__` too). Equal listings give equal scans of the directory, so one whose mtime
    moved because a file in it was replaced (an editor's save, renamed into place), an
    editor's swap or backup file came or went, or bytecode was written keeps its scan
    (runcache.Previous.scans)."""
    out = []
    for e in entries:
        name = e.name
        try:
            if name.endswith(LISTED_SUFFIXES) or \
                    (e.is_dir() and _is_ident(name) and name != "__pycache__"):
                out.append((name, e.is_dir(), e.is_symlink()))
        except OSError:
            out.append((name, None, None))
    return tuple(out)


def listing(directory: str) -> tuple | None:
    """listing_of the directory now; None when it cannot be listed."""
    try:
        return listing_of(sorted(os.scandir(directory), key=lambda e: e.name))
    except OSError:
        return None


def scan_package(root: str, top: str, problems: list, base: str | None = None,
                 watch: list | None = None, listings: dict | None = None) -> list[ModuleInfo]:
    """Every module of the top-level package/module `top` under `root` (iterative walk), or
    in the directory `base` when a package-dir mapping puts it there. `watch`, when given,
    receives every directory whose listing decided the answer (runcache.py); `listings`
    the listing (listing_of) of each package directory walked."""
    out: list[ModuleInfo] = []
    base = base or os.path.join(root, top)
    if not os.path.isdir(base):
        found = loaded_file(root, top)
        return [ModuleInfo(top, found[0], found[1], root)] if found else out
    seen: set[tuple[int, int]] = set()
    # directories reached through a symlink wait until every real one is walked: a link to a
    # directory of the package (x1/to2 -> x2, x2/to1 -> x1) is then the one left out
    stack, linked = [(base, top)], []
    via: set[str] = set()  # the paths in `linked`, and below them
    while stack or linked:
        directory, dotted = stack.pop() if stack else linked.pop()
        if watch is not None:
            watch.append(directory)
        try:
            real = _identity(directory)
            if real in seen:
                problems.append((directory, 1, "IS003", "symlink to a directory already "
                                 "walked (a loop or an alias): not analysed again"))
                continue
            seen.add(real)
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
            if listings is not None:
                listings[directory] = listing_of(entries)
        except OSError as exc:
            problems.append((directory, 1, "IS003", f"cannot read directory: {exc.strerror}"))
            continue
        names = {e.name for e in entries}
        module_files = list(map(_module_file_name, entries))
        # CPython's finder imports regular files only (a FIFO, a link to /dev/zero, a broken
        # link are no module): said, and left out
        irregular = {e.name for e, f in zip(entries, module_files)
                     if f is not None and not _regular(e, problems)}
        chosen = chosen_files(names - irregular)
        init = package_init(directory, names)
        out.append(ModuleInfo(dotted, init[0], init[1], root) if init is not None else
                   ModuleInfo(dotted, directory, "namespace", root))
        # CPython's FileFinder: a regular package directory beats a module file of the same
        # name, which beats a directory without __init__ (a namespace portion)
        files = {f[0] for f in module_files if f is not None}
        listed: dict = {}  # the listings names_of_packages made of directories without one
        packages = names_of_packages(entries, listed)
        for entry, found in zip(entries, module_files):
            try:
                is_dir = entry.is_dir()
            except OSError as exc:
                problems.append((entry.path, 1, "IS003", f"cannot read: {exc.strerror}"))
                continue
            if is_dir:
                if not _is_ident(entry.name) or entry.name == "__pycache__":
                    continue
                if entry.name in files and entry.name not in packages:
                    if watch is not None:  # an __init__.py added there would win
                        watch.append(entry.path)
                    continue
                walked: list[str] = []
                if entry.name in packages or _has_python(entry.path, problems, watch,
                                                         listed.get(entry.path), walked):
                    if entry.is_symlink() or directory in via:
                        via.add(entry.path)
                        linked.append((entry.path, f"{dotted}.{entry.name}"))
                    else:
                        stack.append((entry.path, f"{dotted}.{entry.name}"))
                else:  # no Python in it, yet importable: namespace portions (no entries)
                    for path in walked:
                        rel = os.path.relpath(path, directory).replace(os.sep, ".")
                        out.append(ModuleInfo(f"{dotted}.{rel}", path, "namespace", root))
                continue
            if found is None or found[0] in packages or entry.name in irregular:
                continue
            if chosen.get(found[0]) != entry.name:
                continue  # CPython loads another file of this name (extension, source, stub)
            out.append(ModuleInfo(f"{dotted}.{found[0]}", entry.path, found[1], root))
    return _dedupe(out)


def _regular(entry: os.DirEntry, problems: list) -> bool:
    """Is this directory entry a regular file (through a symlink too)? If not, and it is not
    a directory, a diagnostic says so."""
    try:
        if entry.is_file() or entry.is_dir():
            return True
        mode = os.stat(entry.path).st_mode
    except OSError:
        problems.append((entry.path, 1, "IS003", "not a regular file (a broken symlink): "
                         "not importable"))
        return False
    from .files import file_kind
    problems.append((entry.path, 1, "IS003",
                     f"not a regular file ({file_kind(mode)}): not importable"))
    return False


def names_of_packages(entries, listed: dict | None = None) -> set[str]:
    """Directories among `entries` that are regular packages (hold an `__init__`), of those
    whose name can be imported (not `__pycache__`, whose listing is long). `listed`, when
    given, receives the listing (os.scandir entries) of each directory that had to be listed
    to tell, by path: _has_python reads it again."""
    out = set()
    isfile = os.path.isfile
    for e in entries:
        try:
            # an `__init__.py` file makes it one, whatever other `__init__` file CPython
            # loads: one stat, not a listing (most package directories have one)
            if not (e.is_dir() and _is_ident(e.name) and e.name != "__pycache__"):
                continue
            if isfile(e.path + os.sep + "__init__.py"):
                out.add(e.name)
                continue
            try:
                with os.scandir(e.path) as it:
                    inside = list(it)
            except OSError:
                continue
            if listed is not None:
                listed[e.path] = inside
            if package_init(e.path, [x.name for x in inside]) is not None:
                out.add(e.name)
        except OSError:
            continue
    return out


def _dedupe(infos: list[ModuleInfo]) -> list[ModuleInfo]:
    by_name: dict[str, ModuleInfo] = {}
    for info in infos:
        by_name.setdefault(info.name, info)
    return list(by_name.values())


def _identity(directory: str) -> tuple[int, int]:
    """What makes two paths the same directory (a symlink loop revisits one): one stat call,
    where realpath costs one per path component."""
    st = os.stat(directory)
    return st.st_dev, st.st_ino


def _has_python(directory: str, problems: list, watch: list | None = None,
                listing: list | None = None, walked: list | None = None) -> bool:
    """Does a directory that is no regular package (names_of_packages said so) hold Python
    (so it imports as a namespace)? `listing`: its os.scandir entries, when already made;
    `walked` receives the directories looked at (it and those below with names that can be
    imported: each imports as a namespace portion all the same)."""
    # only a symlink can close a loop: the directories reached through one are remembered
    stack, seen = [(directory, os.path.islink(directory))], set()
    while stack:
        d, linked = stack.pop()
        if watch is not None:
            watch.append(d)
        if walked is not None:
            walked.append(d)
        try:
            if linked:
                real = _identity(d)
                if real in seen:
                    continue
                seen.add(real)
            if listing is not None and d == directory:
                found = _python_or_subdirs(listing, stack)
            else:
                with os.scandir(d) as it:
                    found = _python_or_subdirs(it, stack)
            if found:
                return True
        except OSError as exc:
            if d == directory:  # nobody can tell what it holds: said, not silently left out
                problems.append((d, 1, "IS003", f"cannot read directory: {exc.strerror}"))
            continue
    return False


def _python_or_subdirs(entries, stack: list) -> bool:
    """True at the first Python source among `entries`; until then, each subdirectory
    whose name can be imported goes on `stack`, with whether it is a symlink."""
    for e in entries:
        if e.name.endswith(".py"):
            return True
        if e.is_dir() and _is_ident(e.name):
            stack.append((e.path, e.is_symlink()))
    return False


MAX_LISTED = 4096  # a directory with more entries is not listed (the simulator says unknown)
# configuration files the listed code may read with configparser (configfiles.py): their
# bytes are part of the listing, so results that read them are keyed on their content
CONFIG_SUFFIXES = (".ini", ".cfg", ".conf")
MAX_CONFIG_BYTES = 1 << 16
MAX_CONFIG_FILES = 64


@dataclass(frozen=True, slots=True)
class DirListing:
    """A directory as os.scandir lists it now, in that order: (name, kind) with kind "f" a
    file, "d" a directory (as os.path.isfile / isdir say, through symlinks), "" anything
    else. `pycache`: no `__pycache__` is listed yet but CPython may write one there (the
    directory is writable) before the code that lists it runs."""

    path: str
    entries: tuple[tuple[str, str], ...]
    pycache: bool
    real: bool = False  # the path is its own os.path.realpath (no symlink on the way)
    links: tuple[str, ...] = ()  # the entries that are symlinks, sorted (a stable repr)
    # (name, bytes) of its small configuration files (CONFIG_SUFFIXES), sorted by name
    texts: tuple[tuple[str, bytes], ...] = ()

    def text(self, name: str) -> bytes | None:
        """The bytes of configuration file `name` as read at check time, if they were."""
        for entry, data in self.texts:
            if entry == name:
                return data
        return None


def read_listing(directory: str) -> DirListing | None:
    """The directory's listing now, or None when it cannot be read or is too long."""
    out, links = [], set()
    try:
        with os.scandir(directory) as it:
            for e in it:
                try:
                    kind = "d" if e.is_dir() else "f" if e.is_file() else ""
                    if e.is_symlink():
                        links.add(e.name)
                except OSError:
                    kind = ""
                out.append((e.name, kind))
                if len(out) > MAX_LISTED:
                    return None
    except OSError:
        return None
    names = {n for n, _ in out}
    path = os.path.normpath(directory)
    return DirListing(path, tuple(out),
                      "__pycache__" not in names and os.access(directory, os.W_OK),
                      os.path.realpath(path) == path, tuple(sorted(links)),
                      _config_texts(path, out))


def _config_texts(directory: str, entries) -> tuple[tuple[str, bytes], ...]:
    """The bytes of the directory's small configuration files, read at most once each."""
    out = []
    for name in sorted(n for n, kind in entries if kind == "f" and n.endswith(CONFIG_SUFFIXES)):
        if len(out) == MAX_CONFIG_FILES:
            break
        try:
            # O_NONBLOCK: a FIFO named x.ini must not hang the check (is_file() was true
            # when listed, but the entry may have been replaced since)
            fd = os.open(os.path.join(directory, name), os.O_RDONLY | os.O_NONBLOCK)
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    continue
                data = b""
                while len(data) <= MAX_CONFIG_BYTES:
                    chunk = os.read(fd, MAX_CONFIG_BYTES + 1 - len(data))
                    if not chunk:
                        break
                    data += chunk
            finally:
                os.close(fd)
        except OSError:
            continue
        if len(data) <= MAX_CONFIG_BYTES:
            out.append((name, data))
    return tuple(out)


def read_listings(infos, lists_dirs) -> dict[str, DirListing]:
    """The listing of the directory of each module `lists_dirs(name)` says may list it (its
    package's directory, for a package its own), by normalised path; where one may, also
    that of every package, which it may list through the package's `__file__`."""
    out: dict[str, DirListing] = {}
    infos = list(infos)
    listing = [i for i in infos if i.kind in ("module", "package") and lists_dirs(i.name)]
    if listing:
        listing += [i for i in infos if i.kind == "package"]
    for info in listing:
        directory = os.path.normpath(os.path.dirname(info.path))
        if directory not in out:
            found = read_listing(directory)
            if found is not None:
                out[directory] = found
    return out
