"""Requested paths -> source roots, entries and the module map (IO: directory listings, and
the project's setuptools `package-dir` mapping: static/package_dirs.py)."""
from __future__ import annotations

import os
from dataclasses import dataclass

from . import package_dirs
from .discover import ModuleInfo, infer_root, module_name_for, scan_package


@dataclass(frozen=True, slots=True)
class Target:
    """One requested path: its source root, its top-level name and the entry prefix."""

    root: str
    top: str
    prefix: str | None  # entries are this module and everything below; None: whole top
    # a package that a setuptools package-dir mapping puts in a directory not named after it
    # (`{"mypkg" = "."}`): that directory, which is not below any source root
    base: str | None = None
    packages: frozenset[str] | None = None  # entries only in these packages (`packages = [..]`)
    exclude: tuple[str, ...] = ()  # no entries at or below these names (tests/, setup.py, ...)


class InputError(Exception):
    """A path or option that cannot be analysed (exit status 2)."""


def _containing_root(path: str, roots: list[str]) -> str | None:
    best = None
    for root in roots:
        if path == root or path.startswith(root.rstrip(os.sep) + os.sep):
            if best is None or len(root) > len(best):
                best = root
    return best


def _tops_in_root(root: str) -> list[str]:
    tops = []
    for entry in sorted(os.scandir(root), key=lambda e: e.name):
        name = entry.name
        if entry.is_dir() and name.isidentifier() and name != "__pycache__":
            if any(f.endswith(".py") or f == "__init__.py" for f in _listdir(entry.path)) or \
                    any(os.path.isdir(os.path.join(entry.path, f)) for f in _listdir(entry.path)):
                tops.append(name)
        elif name.endswith(".py") and name[:-3].isidentifier():
            tops.append(name[:-3])
    return tops


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def resolve_targets(paths, source_roots) -> tuple[list[str], list[Target]]:
    """Each path -> Target; raises InputError for a path that is missing or holds no Python."""
    roots, targets, _ = resolve_layout(paths, source_roots)
    return roots, targets


def resolve_layout(paths, source_roots
                   ) -> tuple[list[str], list[Target], dict[str, str]]:
    """(source roots, targets, mapped packages): as resolve_targets, plus the top-level
    packages that the projects of the paths map to directories of their own (setuptools
    `package-dir`), each -> its directory."""
    roots = [os.path.realpath(r) for r in source_roots]
    for root in roots:
        if not os.path.isdir(root):
            raise InputError(f"source root does not exist or is not a directory: {root}")
    targets: list[Target] = []
    mapped: dict[str, str] = {}
    for raw in paths:
        path = os.path.realpath(raw)
        if not os.path.exists(raw):
            raise InputError(f"path does not exist: {raw}")
        if not (os.path.isfile(path) or os.path.isdir(path)):
            raise InputError(f"not a regular file or directory: {raw}")
        project = package_dirs.find(path)
        if project is not None:
            for top, directory in project.dirs:
                mapped.setdefault(top, directory)
        targets.extend(_targets_for(raw, path, roots, project))
    found_roots = []
    for t in targets:
        if t.base is None and t.root not in found_roots:
            found_roots.append(t.root)
    for r in roots:
        if r not in found_roots:
            found_roots.append(r)
    return found_roots, targets, mapped


def _targets_for(raw: str, path: str, roots: list[str],
                 project: package_dirs.PackageDirs | None = None) -> list[Target]:
    root = _containing_root(path, roots)
    if project is not None:
        mapped = project.mapped(path)
        # a source root given at or below the mapped directory says otherwise: it wins
        if mapped is not None and (root is None or not package_dirs.within(root, mapped[1])):
            return [_mapped_target(raw, path, *mapped, project)]
        if root is None and project.root is not None and package_dirs.within(path, project.root):
            root = project.root  # package-dir {"" = "lib"}: lib is the source root
        inside = [d for _, d in project.dirs] + [project.root] * (project.root is not None)
        inside = [d for d in inside if d != path and package_dirs.within(d, path)]
        if root is None and inside and os.path.isdir(path):
            # `check .` at the project root of {"mypkg" = "code"} or {"" = "lib"}: the
            # mapped directories, not the project root as a source root
            return [t for d in dict.fromkeys(inside) for t in _targets_for(d, d, roots, project)]
    if os.path.isfile(path):
        if not path.endswith(".py"):
            raise InputError(f"not a Python file: {raw}")
        root = root or infer_root(path)
        name = module_name_for(path, root)
        if name is None:
            raise InputError(f"cannot name a module for {raw} under source root {root}")
        return [Target(root, name.partition(".")[0], name)]
    if os.path.isfile(os.path.join(path, "__init__.py")) or (root and root != path):
        root = root or infer_root(path)
        name = module_name_for(os.path.join(path, "__init__.py"), root)
        if name is None:
            raise InputError(f"cannot name a package for {raw} under source root {root}")
        return [Target(root, name.partition(".")[0], name)]
    tops = _tops_in_root(path)
    if not tops:
        raise InputError(f"no Python modules or packages in {raw}")
    return [Target(path, top, None) for top in tops]


def _mapped_target(raw: str, path: str, top: str, directory: str,
                   project: package_dirs.PackageDirs) -> Target:
    """The target of a path in the directory that holds the mapped package `top`."""
    rel = os.path.relpath(path, directory)
    parts = [] if rel == "." else rel.split(os.sep)
    if os.path.isfile(path):
        if not path.endswith(".py"):
            raise InputError(f"not a Python file: {raw}")
        parts[-1] = parts[-1][:-3]
        if parts[-1] == "__init__":
            parts.pop()
    if not all(p.isidentifier() for p in parts):
        raise InputError(f"cannot name a module for {raw} in package {top} ({directory})")
    if parts:
        return Target(directory, top, ".".join([top, *parts]), base=directory)
    # the whole package: what the distribution holds, not the project's tests or setup.py
    packages = None if project.packages is None else frozenset(
        p for p in project.packages if p == top or p.startswith(top + "."))
    exclude: tuple[str, ...] = ()
    if directory == project.project:
        from ..config.project import NOT_CODE
        exclude = tuple(f"{top}.{n}" for n in sorted(NOT_CODE) + list(package_dirs.ROOT_SCRIPTS))
    return Target(directory, top, top, base=directory, packages=packages or None,
                  exclude=exclude)


def scan(root: str, top: str, problems: list, base: str | None = None,
         watch: list | None = None, listings: dict | None = None) -> list[ModuleInfo]:
    """Every module of `top`: root/top, or `base` for a mapped package."""
    return scan_package(root, top, problems, base, watch, listings)


def find_top(roots: list[str], top: str) -> str | None:
    """The first source root holding a top-level package or module named `top`."""
    for root in roots:
        base = os.path.join(root, top)
        if os.path.isdir(base) or os.path.isfile(base + ".py"):
            return root
    return None


def is_entry(name: str, targets: list[Target], package: bool = False) -> bool:
    """Is module `name` (a regular package when `package`) under a requested path?"""
    for t in targets:
        prefix = t.prefix or t.top
        if not (name == prefix or name.startswith(prefix + ".")):
            continue
        if any(name == x or name.startswith(x + ".") for x in t.exclude):
            continue
        if t.packages is not None and \
                (name if package else name.rpartition(".")[0]) not in t.packages:
            continue
        return True
    return False
