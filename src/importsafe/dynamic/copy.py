"""`run --copy`: the jobs import a temporary copy of the analysed packages, so that what their
import does to its own files (delete, rewrite, write bytecode) happens to the copy.

Copied: in each source root, the top-level packages and modules (directories with an
identifier name, `.py`, extension and `.pth` files; in an installation directory only the
analysed distribution's), whole, `__pycache__` left out and symlinks kept as links; and each
package a setuptools package-dir mapping puts in a directory of its own. Not a sandbox: the
code still runs with the user's rights.
"""
from __future__ import annotations

import os
import shutil
from typing import Mapping, Sequence

from ..static.installed import analysed_tops

_PYTHON_FILES = (".py", ".so", ".pyd", ".pth")
_IGNORED = shutil.ignore_patterns("__pycache__")


def _wanted(name: str, path: str, tops: set[str] | None) -> bool:
    stem = name.partition(".")[0]
    if tops is not None:
        return stem in tops
    if os.path.isdir(path):
        return name.isidentifier() and name != "__pycache__" and \
            not os.path.exists(os.path.join(path, "pyvenv.cfg"))
    return name.endswith(_PYTHON_FILES)


def _copy(src: str, dst: str) -> None:
    if os.path.isdir(src) and not os.path.islink(src):
        shutil.copytree(src, dst, symlinks=True, ignore=_IGNORED)
    else:
        shutil.copy2(src, dst, follow_symlinks=False)


def copy_tree(base: str, roots: Sequence[str], package_dirs: Mapping[str, str],
              jobs: Sequence[tuple[str, str]]
              ) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """(the roots of the copy, the package-dir mapping into it, copy path -> original path)
    for the roots and mapped packages of a run of `jobs`, copied under `base`."""
    tops = {e.partition(".")[0] for e, _ in jobs}
    copies: dict[str, str] = {}
    new_roots = []
    for i, root in enumerate(roots):
        target = os.path.join(base, "tree", str(i))
        os.makedirs(target)
        installed = analysed_tops(root, tops)
        for name in sorted(os.listdir(root)):
            path = os.path.join(root, name)
            if _wanted(name, path, set(installed) if installed is not None else None):
                _copy(path, os.path.join(target, name))
        copies[target] = root
        new_roots.append(target)
        if installed is not None:
            new_roots.append(root)  # its other distributions: dependencies, found as before
    mapped = {}
    for top, directory in sorted(package_dirs.items()):
        target = os.path.join(base, "tree", "mapped", top)
        _copy(os.path.realpath(directory), target)
        copies[target] = os.path.realpath(directory)
        mapped[top] = target
    return new_roots, mapped, copies


def originals(msg: dict, copies: Mapping[str, str]) -> dict:
    """The message with the files of the copy named by their originals."""
    error = msg.get("error")
    if not copies or not isinstance(error, dict):
        return msg

    def back(path: str) -> str:
        for copy, original in copies.items():
            if path == copy or path.startswith(copy + os.sep):
                return original + path[len(copy):]
        return path
    for frame in error.get("chain") or ():
        if isinstance(frame.get("file"), str):
            frame["file"] = back(frame["file"])
    if isinstance(error.get("message"), str):
        for copy, original in copies.items():
            error["message"] = error["message"].replace(copy + os.sep, original + os.sep)
    return msg
