#!/usr/bin/env python3
"""Which parser should the fact extractor stand on? (issue 6: evaluate a faster extractor)

    python3 benchmarks/parsers.py [--packages sympy,django] [--rounds 3]

For every .py file of each package (from benchmarks/.work/venv, made by run.py), times in one
process, interleaved round by round:
- `ast.parse` (CPython's C parser; the floor of the static benchmark),
- tree-sitter-python's parse (`pip install tree-sitter tree-sitter-python`), parse only: no
  walk, no facts, so the best case for a tree-sitter extractor,
- importsafe's fact extraction as `check` runs it (ast.parse + facts, bodies deferred).
Prints medians and the ratios to `ast.parse`. A tree-sitter extractor can only win if its bare
parse beats `ast.parse` by more than the cost of walking its tree from Python.
"""
from __future__ import annotations

import argparse
import ast
import gc
import os
import statistics
import sys
import time
from pathlib import Path

SITE = Path(__file__).resolve().parent / ".work" / "venv" / "lib"


def package_dir(name: str) -> Path:
    found = sorted(SITE.glob(f"python3*/site-packages/{name}"))
    if not found:
        sys.exit(f"{name} not found under {SITE}: run benchmarks/run.py once first")
    return found[-1]


def sources(root: Path) -> list[tuple[str, bytes]]:
    return [(str(p), p.read_bytes()) for p in sorted(root.rglob("*.py"))]


def tree_sitter_parser():
    try:
        import tree_sitter_python
        from tree_sitter import Language, Parser
    except ImportError:
        return None
    return Parser(Language(tree_sitter_python.language()))


def timed(fn, files) -> float:
    gc.collect()
    start = time.perf_counter()
    for path, data in files:
        fn(path, data)
    return time.perf_counter() - start


def main(argv=None) -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--packages", default="sympy,django")
    args.add_argument("--rounds", type=int, default=3)
    ns = args.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from importsafe.static.facts import facts_from_source
    ts = tree_sitter_parser()

    def ast_parse(path, data):
        try:
            ast.parse(data)
        except (SyntaxError, ValueError):
            pass

    tools = {"ast.parse": ast_parse,
             "importsafe facts": lambda path, data: facts_from_source(
                 data, "m", path, os.path.basename(path) == "__init__.py", bodies=False)}
    if ts is not None:
        tools["tree-sitter parse"] = lambda path, data: ts.parse(data)
    for name in ns.packages.split(","):
        files = sources(package_dir(name))
        times: dict[str, list[float]] = {t: [] for t in tools}
        for r in range(ns.rounds):
            order = list(tools)[r % len(tools):] + list(tools)[:r % len(tools)]
            for tool in order:
                times[tool].append(timed(tools[tool], files))
        floor = statistics.median(times["ast.parse"])
        print(f"{name}: {len(files)} files")
        for tool, ts_ in times.items():
            med = statistics.median(ts_)
            print(f"  {tool:18s} median {med:7.2f} s  min {min(ts_):7.2f} s  "
                  f"{med / floor:5.2f}x ast.parse")
        if ts is None:
            print("  tree-sitter not installed: pip install tree-sitter tree-sitter-python")
    return 0


if __name__ == "__main__":
    sys.exit(main())
