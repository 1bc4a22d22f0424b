"""Which top-level names belong together in an installation directory (IO: reads metadata).

A source root that holds `*.dist-info` directories is where pip installed distributions: `site-packages`. Checking `site-packages/torch` there means checking the torch
distribution (whose wheel also ships `functorch` and `torchgen`), not sympy or numpy, which
torch merely depends on. So in such a root the other distributions' packages are external,
exactly as they would be for a checkout whose dependencies live in a venv elsewhere. The
owner of each name comes from the distribution's `top_level.txt` when it has one (setuptools
writes it), else from its `RECORD` (what was installed).
"""
from __future__ import annotations

import os
import sys

META_SUFFIXES = (".dist-info", ".egg-info")


def distributions(root: str, wanted: set[str] | None = None) -> list[frozenset[str]] | None:
    """The top-level names of each distribution installed in `root`; None when `root` is not
    an installation directory. With `wanted`, only those of the distributions that may have
    one of those names (_tops_of)."""
    try:
        metas = sorted(e.path for e in os.scandir(root) if e.is_dir() and
                       e.name.endswith(META_SUFFIXES))
    except OSError:
        return None
    if not any(m.endswith(".dist-info") for m in metas):
        return None  # a checkout's stray `*.egg-info` does not make it site-packages
    return [tops for tops in (_tops_of(m, wanted) for m in metas) if tops]


def _tops_of(meta: str, wanted: set[str] | None = None) -> frozenset[str]:
    """The distribution's top-level names; with `wanted`, empty for one whose RECORD names
    none of them anywhere (not parsed then: a RECORD can be thousands of lines)."""
    listed = _read(os.path.join(meta, "top_level.txt"))  # a few bytes, where RECORD is large
    tops = {t.strip() for t in listed.splitlines() if t.strip().isidentifier()}
    if tops:
        return frozenset(tops)
    record = _read(os.path.join(meta, "RECORD"))
    if wanted is not None and not any(name in record for name in wanted):
        return frozenset()
    for line in record.splitlines():
        path = line.rsplit(",", 2)[0].strip().strip('"') if line.strip() else ""
        head = path.replace("\\", "/").split("/")[0]
        if not head or head.startswith("..") or head.endswith(META_SUFFIXES) or \
                head.endswith(".data") or head == "__pycache__":
            continue
        if "/" not in path.replace("\\", "/"):
            if not head.endswith(".py"):
                continue  # a .pth, a script, a native module file: no Python package
            head = head[:-3]
        if head.isidentifier():
            tops.add(head)
    return frozenset(tops)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def analysed_tops(root: str, requested: set[str]) -> frozenset[str] | None:
    """In an installation directory: the top-level names analysed when `requested` are
    checked (theirs and their distributions' other packages); None elsewhere (every package
    under the root is analysed)."""
    dists = distributions(root, requested)
    if dists is None:
        return None
    found = set(requested)
    for tops in dists:
        if tops & requested:
            found |= tops
    return frozenset(found)


MAX_VERSION_FILE = 1 << 20  # a module that names its version is small; larger ones are not read
_FOLLOW = 4  # `from ._version import __version__` steps followed to the literal


class Versions:
    """The installed versions of dependencies, read from files on first ask and never by
    importing (IO): `name.VERSION` / `name.__version__` from a literal in the module's source
    on the source roots or in the environment's site-packages (through `from .version import
    VERSION` and `__version__ = VERSION`), and distributions' versions from their
    `*.dist-info/METADATA` (`Version:`). `files()` are every path whose state decided an
    answer (the run cache watches them)."""

    def __init__(self, roots):
        self.roots = tuple(dict.fromkeys(os.path.normpath(r) for r in roots))
        self._modules: dict = {}  # (module, attr) -> (version, file) | None
        self._dists: dict = {}  # normalised name -> (version, file) | None
        self._read: dict[str, None] = {}
        # for `installed`: set by of_environment (without them, nothing is known absent)
        self._sites: tuple[str, ...] = ()
        self._extra: tuple[str, ...] = ()
        self._stdlib: frozenset[str] | None = None
        self._path: tuple | None = None  # (importable top-level names, or None, per entry)
        self._maybe: frozenset[str] = frozenset()

    @classmethod
    def of_environment(cls, roots) -> "Versions":
        """Over the source roots, then the site-packages of the running interpreter; for
        `installed`, also its PYTHONPATH, the paths `.pth` files add and its stdlib."""
        import site
        import sysconfig
        paths = sysconfig.get_paths()
        sites = [paths.get("purelib"), paths.get("platlib")]
        try:
            sites.append(site.getusersitepackages())
        except AttributeError:  # a virtualenv's older site module
            pass
        sites = [p for p in dict.fromkeys(sites) if p and os.path.isdir(p)]
        found = cls([*roots, *sites])
        found._sites = tuple(os.path.normpath(p) for p in sites)
        found._extra = tuple(os.path.normpath(p) for p in (
            *os.environ.get("PYTHONPATH", "").split(os.pathsep),
            paths.get("stdlib"), paths.get("platstdlib"),
            os.path.join(paths.get("platstdlib") or "", "lib-dynload")) if p)
        found._stdlib = stdlib_names()
        return found

    def files(self) -> tuple[str, ...]:
        """The paths read, and every root: an install or upgrade renames a `*.dist-info`
        there (what worker processes read is not seen here)."""
        return tuple(dict.fromkeys((*self.roots, *self._read)))

    def of_module(self, module: str, attr: str) -> tuple[str, str] | None:
        """(the version string `module.attr` holds, the file it was read from), or None."""
        key = (module, attr)
        if key not in self._modules:
            self._modules[key] = self._module_literal(module, attr, _FOLLOW)
            if self._modules[key] is None and attr == "__version__" and "." not in module:
                self._modules[key] = self.of_distribution(module)
        return self._modules[key]

    def of_distribution(self, dist: str) -> tuple[str, str] | None:
        """(the `Version:` of the installed distribution `dist`, its metadata file), or None."""
        import re
        want = re.sub(r"[-_.]+", "_", dist).lower()
        if want not in self._dists:
            self._dists[want] = self._metadata_version(want)
        return self._dists[want]

    def why(self, assumption) -> str | None:
        """What an Assumption of kind "version" would say now (None: no longer known)."""
        if assumption.why.startswith("version of distribution "):
            found = self.of_distribution(assumption.name)
        else:
            module, _, attr = assumption.name.rpartition(".")
            found = self.of_module(module, attr)
        return version_why(assumption.name, found, assumption.why.startswith(
            "version of distribution ")) if found is not None else None

    def hold(self, assumes) -> bool:
        """Do the version and installation assumptions among `assumes` still read the
        same?"""
        return all(self.why(a) == a.why if a.kind == "version" else
                   self.installed(a.name) is False for a in assumes
                   if a.kind in ("version", "installed"))

    # -- installed or not --
    def installed(self, top: str) -> bool | None:
        """Can `import top` find a module (statically: the names on the import path)? True:
        a builtin or stdlib module, or a package, module or extension of that name on a
        path entry; False: found on none of them; None: not known (no environment read, a
        zip file on the path, a `.pth` file whose code may add a finder for it)."""
        if self._stdlib is None:
            return None
        if top in self._stdlib or top in _REMOVED_STDLIB:
            return True if top in self._stdlib else None
        if self._path is None:
            self._path, self._maybe = self._read_path()
        for names in self._path:
            if names is None or top in names:
                return None if names is None else True
        return None if top in self._maybe else False

    def path_key(self) -> str:
        """The import path `installed` reads, for the run cache's key ("" without one)."""
        return "\0path:" + "\0".join((*self.roots, *self._extra)) if self._stdlib else ""

    def absent_why(self, top: str) -> str:
        """The `why` of an Assumption of kind "installed"."""
        return (f"module {top} taken as not installed: found on none of the source roots, "
                f"site-packages, PYTHONPATH or the stdlib of {sys.executable}")

    def _read_path(self) -> tuple[tuple, frozenset[str]]:
        """(the top-level names each entry of the import path holds, None for a zip
        archive; the names `.pth` code may provide). `.pth` files in site-packages add the
        directories they name; their lines of code run at startup (_quoted_names)."""
        entries = list(dict.fromkeys((*self.roots, *self._extra)))
        found: list = []
        maybe: set = set()
        for site_dir in self._sites:
            for name in _listing(site_dir):
                if not name.endswith(".pth"):
                    continue
                path = os.path.join(site_dir, name)
                self._read[path] = None
                for line in _read(path).splitlines():
                    line = line.strip()
                    if not line or line.startswith("#"):
                        continue
                    if line.startswith(("import ", "import\t")):
                        maybe |= _quoted_names(line, site_dir)
                    else:
                        entries.append(os.path.normpath(os.path.join(site_dir, line)))
        for entry in dict.fromkeys(entries):
            self._read[entry] = None  # its listing decides what is there
            if os.path.isfile(entry):
                found.append(None)  # a zip archive: not listed here
            else:
                found.append(_importable(_listing(entry)))
        return tuple(found), frozenset(maybe)

    # -- reading --
    def _source_of(self, module: str) -> str | None:
        parts = module.split(".")
        for root in self.roots:
            base = os.path.join(root, *parts)
            for path in (os.path.join(base, "__init__.py"), base + ".py"):
                self._read[path] = None
                if os.path.isfile(path):
                    return path
        return None

    def _module_literal(self, module: str, attr: str, steps: int):
        import ast
        path = self._source_of(module)
        if path is None or steps == 0:
            return None
        try:
            if os.path.getsize(path) > MAX_VERSION_FILE:
                return None
            with open(path, "rb") as f:
                tree = ast.parse(f.read(), filename=path)
        except (OSError, SyntaxError, ValueError, RecursionError):
            return None
        package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
        statements = [st for top in tree.body for st in (
            top.body if top.__class__ is ast.Try else (top,))]
        name, seen = attr, {attr}
        while True:
            found = None
            for stmt in statements:
                got = _bound_by(stmt, name, package)
                if got is not None:
                    found = got  # the last module-level binding is what the module holds
            if found is None or found[0] != "name" or found[1] in seen:
                break
            name = found[1]  # `__version__ = VERSION`
            seen.add(name)
        if found is None or found[0] in ("name", "other"):
            return None
        if found[0] == "literal":
            return found[1], path
        if found[0] == "dist":
            return self.of_distribution(found[1])
        return self._module_literal(found[1], found[2], steps - 1)  # ("from", module, name)

    def _metadata_version(self, want: str):
        for root in self.roots:
            self._read[root] = None  # its listing decides which distributions are there
            try:
                entries = sorted(e.name for e in os.scandir(root) if e.is_dir())
            except OSError:
                continue
            for entry in entries:
                stem, dot, suffix = entry.rpartition(".")
                if "." + suffix not in META_SUFFIXES or not dot:
                    continue
                name = stem.split("-")[0].replace(".", "_").lower()
                if name != want:
                    continue
                path = os.path.join(root, entry, "METADATA" if suffix == "dist-info"
                                    else "PKG-INFO")
                self._read[path] = None
                for line in _read(path).splitlines():
                    if not line.strip():
                        break  # the headers end at the first empty line
                    if line.lower().startswith("version:"):
                        return line.split(":", 1)[1].strip(), path
        return None


# stdlib modules some supported Python versions have and others do not (PEP 594, PEP 632)
_REMOVED_STDLIB = frozenset({
    "aifc", "asynchat", "asyncore", "audioop", "cgi", "cgitb", "chunk", "crypt", "distutils",
    "imghdr", "imp", "lib2to3", "mailcap", "msilib", "nis", "nntplib", "ossaudiodev", "pipes",
    "smtpd", "sndhdr", "spwd", "sunau", "telnetlib", "tomllib", "uu", "xdrlib"})
_MODULE_SUFFIXES = (".py", ".pyc", ".pyw", ".so", ".pyd")


def stdlib_names() -> frozenset[str] | None:
    """The running interpreter's builtin and stdlib top-level names (None before 3.10)."""
    names = getattr(sys, "stdlib_module_names", None)
    return frozenset((*names, *sys.builtin_module_names)) if names is not None else None


def _listing(path: str) -> list[str]:
    try:
        return sorted(os.listdir(path))
    except OSError:
        return []


def _importable(names: list[str]) -> frozenset[str]:
    """The top-level names a directory's entries make importable: a directory (a package,
    or a namespace package), a module, bytecode or an extension module of any ABI."""
    found = set()
    for name in names:
        stem, dot, _ = name.partition(".")
        if not dot or name.endswith(_MODULE_SUFFIXES):
            found.add(stem)  # a name without a dot may be a directory: taken as one
    return frozenset(found)


def _quoted_names(line: str, site_dir: str) -> frozenset[str]:
    """A `.pth` line of code: the top-level names it, or a module of site-packages it
    imports, names in quotes: a finder it installs may provide those (an editable install's
    mapping; setuptools' `distutils-precedence.pth` names distutils)."""
    import re
    texts = [line]
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", line):
        for path in (os.path.join(site_dir, word + ".py"),
                     os.path.join(site_dir, word, "__init__.py")):
            if os.path.isfile(path):
                texts.append(_read(path))
    return frozenset(m.partition(".")[0] for text in texts for m in re.findall(
        r"""['"]([A-Za-z_][A-Za-z0-9_.]*)['"]""", text))


def version_why(name: str, found: tuple[str, str], distribution: bool) -> str:
    """The `why` of a version assumption."""
    what = f"distribution {name}" if distribution else name
    return f"version of {what} taken as {found[0]!r}, read from {found[1]}"


def _bound_by(stmt, name: str, package: str):
    """What a module-level statement binds `name` to: ("literal", str), ("name", other),
    ("dist", distribution) for importlib.metadata.version("dist"), ("from", module, name)
    for an import of it; None when it does not bind it (or binds it to something else:
    ("other",))."""
    import ast
    cls = stmt.__class__
    if cls is ast.Assign or cls is ast.AnnAssign:
        targets = stmt.targets if cls is ast.Assign else [stmt.target]
        if not any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return None
        value = stmt.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return ("literal", value.value)
        if isinstance(value, ast.Name):
            return ("name", value.id)
        if isinstance(value, ast.Call) and len(value.args) == 1 and \
                isinstance(value.args[0], ast.Constant) and isinstance(value.args[0].value, str) \
                and getattr(value.func, "attr", getattr(value.func, "id", None)) == "version":
            return ("dist", value.args[0].value)
        return ("other",)
    if cls is ast.ImportFrom:
        for alias in stmt.names:
            if (alias.asname or alias.name) == name:
                module = stmt.module or ""
                if stmt.level:
                    parts = package.split(".") if package else []
                    if stmt.level - 1 > len(parts) or not parts:
                        return ("other",)
                    base = ".".join(parts[:len(parts) - (stmt.level - 1)])
                    module = f"{base}.{module}" if module else base
                return ("from", module, alias.name) if module else ("other",)
    return None
