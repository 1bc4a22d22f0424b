"""Requested paths -> source roots, entries and the module map (IO: directory listings only)."""
from __future__ import annotations

import os
from dataclasses import dataclass

from .discover import ModuleInfo, infer_root, module_name_for, scan_package


@dataclass(frozen=True, slots=True)
class Target:
    """One requested path: its source root, its top-level name and the entry prefix."""

    root: str
    top: str
    prefix: str | None  # entries are this module and everything below; None: whole top


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
    roots = [os.path.realpath(r) for r in source_roots]
    for root in roots:
        if not os.path.isdir(root):
            raise InputError(f"source root does not exist or is not a directory: {root}")
    targets: list[Target] = []
    for raw in paths:
        path = os.path.realpath(raw)
        if not os.path.exists(raw):
            raise InputError(f"path does not exist: {raw}")
        targets.extend(_targets_for(raw, path, roots))
    found_roots = []
    for t in targets:
        if t.root not in found_roots:
            found_roots.append(t.root)
    for r in roots:
        if r not in found_roots:
            found_roots.append(r)
    return found_roots, targets


def _targets_for(raw: str, path: str, roots: list[str]) -> list[Target]:
    root = _containing_root(path, roots)
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


def scan(root: str, top: str, problems: list) -> list[ModuleInfo]:
    return scan_package(root, top, problems)


def find_top(roots: list[str], top: str) -> str | None:
    """The first source root holding a top-level package or module named `top`."""
    for root in roots:
        base = os.path.join(root, top)
        if os.path.isdir(base) or os.path.isfile(base + ".py"):
            return root
    return None


def is_entry(name: str, targets: list[Target]) -> bool:
    for t in targets:
        prefix = t.prefix or t.top
        if name == prefix or name.startswith(prefix + "."):
            return True
    return False
