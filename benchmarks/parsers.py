#!/usr/bin/env python3
"""Which parser should the fact extractor stand on? (issue 6: evaluate a faster extractor)

    python3 benchmarks/parsers.py [--packages sympy,django] [--rounds 3]

For every .py file of each package (pinned in common.py, in benchmarks/.work/venv, which it
makes or completes as run.py does, with tree-sitter and tree-sitter-python pinned too, then
runs itself with that venv's interpreter), times in one process, interleaved round by round:
- `ast.parse` (CPython's C parser; the floor of the static benchmark),
- tree-sitter-python's parse (TREE_SITTER), parse only: no
  walk, no facts, so the best case for a tree-sitter extractor,
- tree-sitter imports: the parse plus a query (run in C) for every import statement and the
  text of each: a lower bound for finding the imports alone,
- tree-sitter walk: the parse plus a visit, from Python with a TreeCursor, of every node the
  extractor must see (all but function bodies, which importsafe defers), building nothing:
  a lower bound for any Python extractor on tree-sitter,
- ast walk: the same visit over `ast.parse`'s tree, for comparison,
- importsafe's fact extraction as `check` runs it on a source without bytecode (ast.parse +
  facts, bodies deferred),
- skim + skeleton parse: static/skim.py cuts the function bodies out of the text (same lines
  and columns), then `ast.parse` reads what is left: what `check` does to a source whose
  bytecode proves it compiles (installed packages),
- importsafe facts, skimmed: the extraction as `check` runs it on such a source.
Prints medians and the ratios to `ast.parse`. A tree-sitter extractor can only win if its bare
parse beats `ast.parse` by more than the cost of walking its tree from Python: when "tree-sitter
walk" alone costs more than "importsafe facts", it cannot.
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
TREE_SITTER = ("tree-sitter==0.26.1", "tree-sitter-python==0.25.0")


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


def tree_sitter_tools(parser) -> dict:
    """The two tree-sitter lower bounds (see the module docstring)."""
    import tree_sitter_python
    from tree_sitter import Language, Query, QueryCursor
    query = Query(Language(tree_sitter_python.language()),
                  "(import_statement) @i (import_from_statement) @i")

    def imports(path, data):
        tree = parser.parse(data)
        for nodes in QueryCursor(query).captures(tree.root_node).values():
            for node in nodes:
                data[node.start_byte:node.end_byte]

    def walk(path, data):
        cursor = parser.parse(data).walk()
        seen = 0
        while True:
            seen += 1
            # into the children, but not into a function's body
            if cursor.node.type != "block" or cursor.node.parent.type != "function_definition":
                if cursor.goto_first_child():
                    continue
            while not cursor.goto_next_sibling():
                if not cursor.goto_parent():
                    return seen
    return {"tree-sitter imports": imports, "tree-sitter walk": walk}


def ast_walk(path, data):
    """Every node of ast.parse's tree but those in function bodies (the same visit as
    tree-sitter walk)."""
    try:
        stack = [ast.parse(data)]
    except (SyntaxError, ValueError):
        return
    seen = 0
    while stack:
        node = stack.pop()
        seen += 1
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(node.decorator_list)
            stack.append(node.args)
            continue
        stack.extend(ast.iter_child_nodes(node))


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
    from common import PINS, VENV, BenchError, ensure_venv
    if Path(sys.prefix).resolve() != VENV.resolve():  # run again inside the venv
        try:
            py = ensure_venv([*(PINS[n] for n in ns.packages.split(",")), *TREE_SITTER])
        except (BenchError, KeyError) as exc:
            sys.exit(f"parsers.py: {exc}")
        os.execv(str(py), [str(py), __file__, *(sys.argv[1:] if argv is None else argv)])
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from importsafe.static.facts import facts_from_source
    ts = tree_sitter_parser()

    def ast_parse(path, data):
        try:
            ast.parse(data)
        except (SyntaxError, ValueError):
            pass

    from importsafe.static.skim import skim

    def skeleton(path, data):
        cut = skim(data)
        ast_parse(path, cut[0] if cut is not None else data)

    tools = {"ast.parse": ast_parse, "ast walk": ast_walk,
             "importsafe facts": lambda path, data: facts_from_source(
                 data, "m", path, os.path.basename(path) == "__init__.py", bodies=False),
             "skim + skeleton parse": skeleton,
             "importsafe facts, skimmed": lambda path, data: facts_from_source(
                 data, "m", path, os.path.basename(path) == "__init__.py", bodies=False,
                 compiles=True)}
    if ts is not None:
        tools["tree-sitter parse"] = lambda path, data: ts.parse(data)
        tools.update(tree_sitter_tools(ts))
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
            print(f"  {tool:26s} median {med:7.2f} s  min {min(ts_):7.2f} s  "
                  f"{med / floor:5.2f}x ast.parse")
        if ts is None:
            print("  tree-sitter not installed: pip install tree-sitter tree-sitter-python")
    return 0


if __name__ == "__main__":
    sys.exit(main())
