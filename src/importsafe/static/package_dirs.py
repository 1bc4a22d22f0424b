"""Setuptools `package-dir` mappings: where a project keeps its packages when a package's
directory is not named after it (IO: reads pyproject.toml and setup.cfg only).

    [tool.setuptools]                          # pyproject.toml
    package-dir = {"mypkg" = "."}              # the repository root *is* the package mypkg
    package-dir = {"" = "lib"}                 # the packages are under lib/ (a source root)
    packages = ["mypkg", "mypkg.sub"]          # optional: what the distribution holds

    [options]                                  # setup.cfg, the legacy form
    package_dir = mypkg = .                    # or: package_dir = =lib
    packages = mypkg, mypkg.sub

A mapped package is discovered under its mapped name (`/r/sub/x.py` is `mypkg.sub.x`), and
`importsafe run` makes it importable under that name. Keys naming a subpackage
(`"mypkg.sub" = "elsewhere"`) are not supported and ignored, as is `package_dir` in setup.py
(which would have to be executed to be read).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

PROJECT_FILES = ("pyproject.toml", "setup.cfg", "setup.py")
# modules at the top of a mapped directory that is the project root, never part of the package
ROOT_SCRIPTS = ("setup", "conftest", "noxfile", "fabfile", "tasks")


@dataclass(frozen=True, slots=True)
class PackageDirs:
    project: str  # the directory holding pyproject.toml / setup.cfg
    dirs: tuple[tuple[str, str], ...]  # (top-level package, its directory as a real path)
    root: str | None  # the "" mapping: the directory holding every other package
    packages: tuple[str, ...] | None  # the explicit `packages` list, when there is one

    def mapped(self, path: str) -> tuple[str, str] | None:
        """(package, directory) of the mapped directory holding `path` (a real path), the
        deepest when several do."""
        best = None
        for top, d in self.dirs:
            if within(path, d) and (best is None or len(d) > len(best[1])):
                best = (top, d)
        return best


def within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def find(start: str) -> PackageDirs | None:
    """The mapping of the nearest project above `start` (the first directory upwards holding
    pyproject.toml, setup.cfg or setup.py), or None when it declares none."""
    d = start if os.path.isdir(start) else os.path.dirname(start)
    while True:
        if any(os.path.isfile(os.path.join(d, f)) for f in PROJECT_FILES):
            return read(d)
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def read(project: str) -> PackageDirs | None:
    """The mapping declared in `project`/pyproject.toml (else its setup.cfg), or None. A file
    that cannot be read or a value of the wrong type declares nothing."""
    project = os.path.realpath(project)
    mapping, packages = _from_pyproject(os.path.join(project, "pyproject.toml"))
    if mapping is None:
        mapping, packages = _from_setup_cfg(os.path.join(project, "setup.cfg"))
    if not mapping:
        return None
    dirs, root = [], None
    for name, rel in mapping.items():
        directory = os.path.realpath(os.path.join(project, rel))
        if not os.path.isdir(directory):
            continue
        if name == "":
            root = directory
        elif name.isidentifier():  # a dotted key maps a subpackage: not supported
            dirs.append((name, directory))
    if not dirs and root is None:
        return None
    return PackageDirs(project, tuple(sorted(dirs)), root, packages)


def _from_pyproject(path: str) -> tuple[dict | None, tuple[str, ...] | None]:
    import tomllib  # only for a file that exists (like configparser below): start-up time
    try:
        with open(path, "rb") as f:
            table = tomllib.load(f).get("tool", {}).get("setuptools", {})
    except (OSError, tomllib.TOMLDecodeError, AttributeError):
        return None, None
    if not isinstance(table, dict):
        return None, None
    mapping = table.get("package-dir")
    if not isinstance(mapping, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in mapping.items()):
        return None, None
    packages = table.get("packages")
    listed = tuple(packages) if isinstance(packages, list) and all(
        isinstance(p, str) for p in packages) else None
    return mapping, listed


def _from_setup_cfg(path: str) -> tuple[dict | None, tuple[str, ...] | None]:
    if not os.path.isfile(path):
        return None, None
    import configparser
    parser = configparser.ConfigParser(interpolation=None)
    try:
        if not parser.read(path, encoding="utf-8"):
            return None, None
        value = parser.get("options", "package_dir", fallback=None)
        packages = parser.get("options", "packages", fallback=None)
    except (configparser.Error, UnicodeDecodeError):
        return None, None
    if value is None:
        return None, None
    mapping = {}
    for item in _cfg_list(value):  # as setuptools reads it: `key = value` items
        key, sep, rel = item.partition("=")
        if sep:
            mapping[key.strip()] = rel.strip()
    listed = None
    if packages is not None and not packages.strip().startswith("find"):
        listed = tuple(_cfg_list(packages))
    return mapping, listed


def _cfg_list(value: str) -> list[str]:
    """setuptools' list syntax: one item per line, or comma-separated on one line."""
    items = value.splitlines() if "\n" in value else value.split(",")
    return [i.strip() for i in items if i.strip() and not re.match(r"\s*#", i)]
