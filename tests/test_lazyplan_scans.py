"""The lazy plan's module scans made in the parse stage (on the facts' own trees) are the
scans of a parse of their own, and a scan made before the module map was complete is not used."""
from pathlib import Path

import pytest

from importsafe.api import load
from importsafe.lazyplan import apply
from importsafe.lazyplan.readers import words_of
from importsafe.lazyplan.scan import scan_module

CASES = Path(__file__).parent / "cases"


def _compare(loaded) -> int:
    sources, _ = apply._sources(loaded.program.index)
    index = loaded.program.index
    compared = 0
    for name, source in sources.items():
        extra = loaded.extras.get(name)
        if extra is None:
            continue
        info = index[name]
        assert extra[2] == scan_module(source, name, info.path, info.kind == "package",
                                       index.__contains__), name
        assert extra[3] == words_of(source), name
        compared += 1
    return compared


@pytest.mark.parametrize("bytecode", [False, True], ids=["source", "bytecode"])
def test_parse_stage_scans_equal_their_own_parse(tmp_path, bytecode):
    import compileall
    import shutil
    compared = 0
    for case in ("lazy_explicit", "method_call", "computed_import", "lazy_eligibility"):
        shutil.copytree(CASES / case, tmp_path / case)
        if bytecode:  # the parse stage then cuts function bodies (skim.py)
            compileall.compile_dir(str(tmp_path / case), quiet=2)
        for pkg in sorted(p for p in (tmp_path / case).iterdir() if p.is_dir()):
            compared += _compare(load([str(pkg)], jobs=1, per_tree=apply._scan_parsed))
    assert compared >= 20


def test_a_scan_made_before_a_later_top_was_found_is_dropped(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "__init__.py").write_text("import b\nX = b.Y\n")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "__init__.py").write_text("Y = 1\n")
    loaded = load([str(tmp_path / "a")], [str(tmp_path)], jobs=1, per_tree=apply._scan_parsed)
    assert {"a", "b"} <= set(loaded.program.index)
    assert "a" not in loaded.extras and "b" in loaded.extras
    assert _compare(loaded) == 1


def test_parse_stage_scans_in_worker_processes_equal_the_serial_ones(tmp_path):
    from importsafe.static.parse import PARALLEL_MIN_FILES
    pkg = tmp_path / "many"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from . import m0\n")
    for i in range(PARALLEL_MIN_FILES + 10):
        (pkg / f"m{i}.py").write_text(f"from . import m{(i + 1) % 7}\nREG = []\n"
                                      f"def f{i}():\n    return REG\nREG.append(f{i})\n")
    serial = load([str(pkg)], jobs=1, per_tree=apply._scan_parsed)
    forked = load([str(pkg)], jobs=2, per_tree=apply._scan_parsed)
    assert set(serial.extras) == set(forked.extras) == set(serial.program.index)
    assert all(serial.extras[n] == forked.extras[n] for n in serial.extras)
    assert _compare(forked) == len(forked.extras)


def test_bodies_loaded_by_the_first_stage_children_are_kept_by_the_parent(tmp_path):
    """The lazy-mode first imports run in forked children; the function bodies they load
    come back to the parent (the later stages fork from it): every one it then asks for is
    there, equal to what it would load itself."""
    from importsafe.lazyplan.plan import PARALLEL_MIN
    pkg = tmp_path / "calls"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for i in range(PARALLEL_MIN + 10):
        (pkg / f"m{i}.py").write_text(f"from . import m{(i + 1) % 5}\n"
                                      f"def setup{i}():\n    return m{(i + 1) % 5}\n"
                                      f"setup{i}()\n")
    program = load([str(pkg)], jobs=1).program
    entries = sorted(program.index)
    base, _, _ = apply._first_runs(program, entries, lambda: None, 2)
    loaded_here = len(program.loaded_functions)  # (the parent may run a share itself)
    fresh = load([str(pkg)], jobs=1).program
    stubs = {(m, ev.name, ev.line): ev.func for m, f in program.facts.items()
             for ev in f.body if ev.__class__.__name__ == "Def"}
    for key, stub in stubs.items():
        body = program.function_body(key[0], stub)
        assert body.body is not None and repr(body) == repr(fresh.function_body(key[0], stub))
    assert len(stubs) >= PARALLEL_MIN
    assert len(program.loaded_functions) == loaded_here  # none had to be loaded again
    assert all(r.outcome == "ok" for r in base.values())


def test_namespace_reads_are_the_reads_of_values_only():
    """`globals()` / `vars()` / `locals()` at module level whose values are read (IS115), not
    writes, key tests or key listings, nor function bodies; in a class body only globals()."""
    import ast

    from importsafe.lazyplan.scan import namespace_reads
    source = ("import x\n"
              "globals()['a'] = 1\n"
              "globals().update(b=2)\n"
              "if 'q' in globals():\n    pass\n"
              "for k in sorted(globals()):\n    pass\n"
              "def f():\n    return globals()\n"
              "class C:\n    v = vars()\n    g = globals()\n"
              "ALL = [k for k, v in globals().items() if isinstance(v, type)]\n"
              "y = globals()['x']\n"
              "z = vars().get('x')\n")
    assert sorted(namespace_reads(ast.parse(source).body)) == [12, 13, 14, 15]
