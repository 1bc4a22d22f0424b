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
