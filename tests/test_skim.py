"""Function bodies cut before parsing (static/skim.py) when bytecode proves the source compiles
(static/bytecode.py): the facts must be exactly those of the full parse, and a syntax error in
a body must still be found whenever CPython would meet it."""
from __future__ import annotations

import ast
import dataclasses
import os
import py_compile
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import importsafe
from importsafe.static.bytecode import bytecode_paths, compiled_before
from importsafe.static.events import Use
from importsafe.static.facts import facts_from_source
from importsafe.static.skim import cuts_hold, def_spans, masked, skim
from test_cli import write


def both(source: bytes):
    """(facts from the whole parse, facts from the skimmed parse), as text (FunctionFacts
    compare by identity)."""
    full = facts_from_source(source, "m", "m.py", False, bodies=False)
    fast = facts_from_source(source, "m", "m.py", False, bodies=False, compiles=True)
    return repr(full), repr(fast)


def cut_lines(source: bytes) -> list[int]:
    """The def lines skim cuts, after checking the cut source parses with the cuts in it."""
    found = skim(source)
    if found is None:
        return []
    tree = ast.parse(found[0])
    assert cuts_hold(tree, found[1])
    assert found[0].count(b"\n") == source.count(b"\n")
    return [line for line, _ in found[1]]


CASES = {
    "methods, async, decorators": (b"import os\n@dec(1)\ndef f(a=os.sep, *b: int) -> X:\n"
                                   b"    return a\nclass C(Base):\n    x = f()\n"
                                   b"    async def g(self):\n        await h()\n\n"
                                   b"    @property\n    def p(self):\n        return 1\n"
                                   b"Y = C.x\n", [3, 7, 11]),
    "nested def: the outer one is cut": (b"def f():\n    def g():\n        return 1\n"
                                         b"    return g\nZ = 2\n", [1]),
    "def under if / else": (b"if A:\n    def f():\n        pass\nelse:\n    def f():\n"
                            b"        return 2\nimport b\n", [2, 5]),
    "one-line def is kept": (b"def f(): return 1\nimport a\n", []),
    "multi-line header with colons inside": (b"def f(\n    a: dict = {'k': 1},\n"
                                             b"    b=lambda x: x,\n) -> list[int]:\n"
                                             b"    return [a]\nfrom . import c\n", [1]),
    "string at column 0 inside a body": (b'def f():\n    s = """\nimport gone\ndef nope():\n'
                                         b'"""\n    return s\nimport kept\n', [1]),
    "def inside a module-level string is no def": (b'DOC = """\ndef f():\n    import x\n"""\n'
                                                   b'import y\n', []),
    "comment at column 0 inside a body": (b"def f():\n    a = 1\n# note\n    return a\n"
                                          b"import z\n", [1]),
    "brackets continued at column 0: kept": (b"def f():\n    x = [\n1, 2]\n    return x\n"
                                             b"import w\n", []),
    "backslash continued at column 0: kept": (b"def f():\n    x = 1 + \\\n2\n    return x\n"
                                              b"import v\n", []),
    "body at the end of a file without newline": (b"import a\ndef f():\n    return 1", [2]),
    "hash and quotes mixed": (b"def f():\n    return '#' + \"'\"  # it's\nX = '\"\"\"'\n"
                              b"def g():\n    return r'\\'' + b'\\\\'\nimport u\n", [1, 4]),
    "global in a body": (b"for i in (1, 2):\n    def f():\n        global i\n        i = 3\n"
                         b"    globals()[f'n{i}'] = i\n", [2]),
    # headers: what defining the function evaluates must stay (decorators, defaults, and
    # annotations unless postponed); the rest of a cut def's header goes
    "postponed annotations": (b"from __future__ import annotations\nimport t\nclass C:\n"
                              b"    @dec(t.a)\n    def f(self, x: t.B,\n          y: t.C) -> t.D[\n"
                              b"            int]:\n        return x\n"
                              b"    def g(self, x: t.E = t.F, *, y: int = t.G) -> t.H:\n"
                              b"        return 1\n    def h(self) -> t.I:\n        return 2\n"
                              b"def m(a: t.K) -> t.L:\n    return a\nZ = C.f\n",
                              [5, 9, 11, 13]),
    "annotations evaluated": (b"import t\nclass C:\n    def f(self, x: t.A) -> t.B:\n"
                              b"        return x\n    def g(self, x, *a, **k) -> t.C:\n"
                              b"        return 1\n    def h(self, x,\n          y):\n        return 2\n"
                              b"def m(a, b=t.D):\n    return a\n", [3, 5, 7, 10]),
    "a future import that is not `annotations`": (
        b"from __future__ import (generators as annotations,\n    division)\nimport t\n"
        b"def f(x: t.A) -> t.B:\n    return x\n", [4]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_skimmed_facts_equal_the_full_parse(name):
    source, expected_cuts = CASES[name]
    assert cut_lines(source) == expected_cuts
    full, fast = both(source)
    assert full == fast


def test_a_cut_def_keeps_of_its_header_only_what_is_evaluated():
    source, _ = CASES["postponed annotations"]
    text, _, postponed, _ = skim(source)
    assert postponed
    assert b"    def f(\n\n):\n" in text  # lines kept inside the brackets
    assert b"def g(self, x: t.E = t.F, *, y: int = t.G) -> t.H:" in text  # defaults: whole
    assert b"def h():" in text and b"def m():" in text
    generic = b"from __future__ import annotations\ndef k[T](x: T) -> T:\n    return 3\n"
    assert skim(generic)[0].startswith(generic[:56])  # type parameters: all of it stays
    source, _ = CASES["annotations evaluated"]
    text, _, postponed, _ = skim(source)
    assert not postponed
    assert b"def f(self, x: t.A) -> t.B:" in text and b"def g() -> t.C:" in text
    assert b"def h(\n):" in text and b"def m(a, b=t.D):" in text
    assert not skim(CASES["a future import that is not `annotations`"][0])[2]
    assert skim(b"from __future__ import annotations as a\ndef f(x: A):\n    pass\n")[2]


@pytest.mark.parametrize("source", [b"def f():\n\treturn 1\nimport a\n",  # tab indentation
                                    b"def f():\r\n    return 1\r\nimport a\r\n",
                                    b"def f():\n    return 'unclosed\nimport a\n"])
def test_what_the_scanner_cannot_read_surely_is_parsed_whole(source):
    assert masked(source) is None and skim(source) is None


NESTED_QUOTES = b'def f(x):\n    return f"{x["a"]}"\ndef g():\n    return f"{\'#\'}"\nimport a\n'
SRC = Path(__file__).resolve().parents[1] / "src"


def _python_312():
    """This interpreter if it reads PEP 701 f-strings, else a 3.12+ one on PATH or in pyenv."""
    if sys.version_info >= (3, 12):
        return sys.executable
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = sorted(str(p) for p in pyenv.glob("3.1[2-9]*/bin/python"))
    found += [shutil.which(f"python3.{minor}") for minor in range(20, 11, -1)]
    for python in filter(None, found):  # a shim on PATH may name a version it lacks
        try:
            ok = subprocess.run([python, "-c", "import sys; assert sys.version_info >= (3, 12)"],
                                capture_output=True, timeout=30).returncode == 0
        except (OSError, subprocess.SubprocessError):
            ok = False
        if ok:
            return python
    return None


def test_nested_quotes_in_f_strings():
    """PEP 701 (3.12+): an f-string may reuse its own quote inside a replacement field. The
    scanner pairs the quotes wrongly there, but harmlessly: the facts are the same."""
    python = _python_312()
    if python is None:
        pytest.skip("no Python 3.12+ here to parse PEP 701 f-strings")
    code = ("import sys; sys.path.insert(0, sys.argv[1])\n"
            "from importsafe.static.facts import facts_from_source\n"
            f"src = {NESTED_QUOTES!r}\n"
            "full = facts_from_source(src, 'm', 'm.py', False, bodies=False)\n"
            "fast = facts_from_source(src, 'm', 'm.py', False, bodies=False, compiles=True)\n"
            "assert full.problem is None and repr(full) == repr(fast), (full, fast)\n"
            "from importsafe.static.skim import skim\n"
            "print(skim(src)[1])\n")
    proc = subprocess.run([python, "-c", code, str(SRC)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "((1, 2), (3, 4))"


def test_stdlib_sources_give_the_same_facts_skimmed():
    """Every 4th module of this interpreter's standard library: wherever skim cuts, the facts
    are those of the whole parse; and it cuts nearly every file that has a def."""
    lib = Path(ast.__file__).parent
    files = sorted(p for p in lib.glob("*.py"))[::4] + sorted(lib.glob("json/*.py")) + \
        sorted(lib.glob("asyncio/*.py"))[::3]
    with_defs = cut = 0
    sources = [(path, path.read_bytes()) for path in files]
    # the same with annotations postponed, where a cut def keeps less of its header
    sources += [(path, b"from __future__ import annotations\n" + source)
                for path, source in sources[::2] if b"from __future__" not in source]
    for path, source in sources:
        if b"def " not in source:
            continue
        with_defs += 1
        if skim(source) is None:
            continue
        cut += 1
        full = facts_from_source(source, "m", str(path), False, bodies=False)
        fast = facts_from_source(source, "m", str(path), False, bodies=False, compiles=True)
        assert repr(full) == repr(fast), path
    assert with_defs > 40 and cut >= 0.9 * with_defs, (cut, with_defs)


def test_bytecode_proves_the_source_it_was_compiled_from(tmp_path, monkeypatch):
    path = tmp_path / "m.py"
    path.write_bytes(b"def f():\n    return 1\n")
    assert not compiled_before(str(path), path.read_bytes())
    py_compile.compile(str(path), cfile=bytecode_paths(str(path))[0], doraise=True)
    assert compiled_before(str(path), path.read_bytes())
    path.write_bytes(b"def f():\n    return 12\n")  # another size
    assert not compiled_before(str(path), path.read_bytes())
    py_compile.compile(str(path), cfile=bytecode_paths(str(path))[0], doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    assert compiled_before(str(path), path.read_bytes())
    path.write_bytes(b"def f():\n    return 21\n")  # same size, same second: the hash tells
    assert not compiled_before(str(path), path.read_bytes())
    os.remove(bytecode_paths(str(path))[0])
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "prefix"))
    py_compile.compile(str(path), doraise=True)  # under the prefix, as CPython writes it
    assert compiled_before(str(path), path.read_bytes())


def _imports(root: Path, module: str) -> subprocess.CompletedProcess:
    """`import module` in CPython, which looks for bytecode beside the source (where the
    tests write it), whatever PYTHONPYCACHEPREFIX the tests run under."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH="")
    env.pop("PYTHONPYCACHEPREFIX", None)
    return subprocess.run([sys.executable, "-c", f"import {module}"], cwd=root,
                          capture_output=True, text=True, env=env)


def test_a_syntax_error_in_a_body_is_found_unless_cpython_would_not_meet_it(tmp_path):
    """Stale bytecode proves nothing: the body's syntax error is found, as CPython finds it.
    But bytecode whose record still matches (same size, same mtime second) is what CPython
    runs instead of the source: then the import succeeds, and the check says so too."""
    good = b"import os\n\ndef f():\n    return (1)\n\nY = 2\n"
    bad = b"import os\n\ndef f():\n    return = 1\n\nY = 2\n"  # the same size
    write(tmp_path, {"p/__init__.py": "", "p/m.py": good})
    module = tmp_path / "p" / "m.py"
    py_compile.compile(str(module), cfile=bytecode_paths(str(module))[0], doraise=True)
    stamp = os.stat(module)
    module.write_bytes(bad + b"#")  # another size: the bytecode is stale
    assert _imports(tmp_path, "p.m").returncode != 0
    report = importsafe.check([tmp_path / "p"], modes=("normal",))
    assert report.result("p.m", "normal").error.exception == "SyntaxError"

    module.write_bytes(bad)
    os.utime(module, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert len(module.read_bytes()) == len(good)
    assert _imports(tmp_path, "p.m").returncode == 0, "CPython runs the bytecode"
    report = importsafe.check([tmp_path / "p"], modes=("normal",))
    assert report.result("p.m", "normal").outcome == "ok"


def test_mutated_sources_that_compile_give_the_same_facts_skimmed():
    """Fuzz: standard-library modules with quotes, brackets, backslashes, tabs, defs and
    newlines inserted or text deleted at random. Whenever the result still compiles, the
    skimmed facts equal the full parse's, whatever the scanner made of it."""
    import random
    rng = random.Random(6)
    lib = Path(ast.__file__).parent
    files = [p.read_bytes() for p in sorted(lib.glob("*.py"))[::7]]
    files = [f for f in files if len(f) < 40000]
    # and as many with annotations postponed (a header then keeps only decorators and
    # defaults)
    files += [b"from __future__ import annotations\n" + f for f in files
              if b"from __future__" not in f]
    inserts = [b'"', b"'", b'"""', b"'''", b"#", b"\\\n", b"(", b")", b"[", b"]", b"{", b"}",
               b"\n", b" ", b"    ", b"\t", b":", b"def f():\n", b"\ndef g():\n    pass\n",
               b"x = (\n", b"\n)\n", b'"""\n', b'f"{x}"']
    compared = 0
    for _ in range(600):
        text = bytearray(rng.choice(files))
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(text) + 1)
            if rng.random() < 0.3:
                del text[at:at + rng.randint(1, 8)]
            else:
                text[at:at] = rng.choice(inserts)
        source = bytes(text)
        try:
            with warnings.catch_warnings():  # a mutation may make an invalid escape
                warnings.simplefilter("ignore")
                compile(source, "m", "exec")
        except (SyntaxError, ValueError):
            continue
        if skim(source) is None:
            continue
        compared += 1
        full, fast = both(source)
        assert full == fast, source
    assert compared >= 50, compared


ALONE_PER_FILE = 30


def test_one_function_parsed_alone_has_the_facts_of_the_whole_parse():
    """facts.function_from_source: the body of one module-level function, every other body
    cut, equals the body the whole parse extracts (stdlib sample and the cases above)."""
    from importsafe.static.facts import declared_global, function_from_source
    from importsafe.static.state import functions_of
    lib = Path(ast.__file__).parent
    sources = [p.read_bytes() for p in sorted(lib.glob("*.py"))[::6]]
    sources += [source for source, _ in CASES.values()] + list(_ALONE_CASES)
    compared = kept = by_lines = 0
    for source in sources:
        full = facts_from_source(source, "m", "m.py", False, nested=False)
        shared = def_spans(source), full.future_annotations, declared_global(source)
        for i, ((name, line), func) in enumerate(functions_of(full.body).items()):
            # the def's own lines parsed alone (spans, future, rebinding given)
            own = function_from_source(source, "m", "m.py", False, (3, 11), name, line, *shared)
            # the skeleton of the whole file, once per function: the first ones of each file
            alone = function_from_source(source, "m", "m.py", False, (3, 11), name, line) \
                if i < ALONE_PER_FILE or own is None else own
            if own is not None and alone is None:  # nothing else to cut: no skeleton
                alone = own
            if alone is None:
                continue
            compared += 1
            by_lines += own is not None
            assert repr(own) == repr(alone), (name, line)
            if declared_global(source):  # may keep reads the whole parse prunes: only those
                assert repr(_without_reads(alone)) == repr(_without_reads(func)), (name, line)
                kept += repr(alone) != repr(func)
            else:
                assert repr(alone) == repr(func), (name, line)
    assert compared > 250 and kept < compared / 10, (compared, kept)
    assert by_lines > compared * 0.9, (by_lines, compared)


# defs parsed alone: indented under if / try / with at module level, async, decorated,
# multi-line headers, nested defs and classes, a body ending at the end of the file, imports
# whose columns count; and an encoding declaration, which only the whole parse honours
_ALONE_CASES = (
    b"import os\nif os.name:\n    @dec\n    def f(a,\n          b=1) -> int:\n"
    b"        import json as j\n        def g():\n            return h\n        return j\n"
    b"else:\n    def f():\n        pass\n",
    b"try:\n    async def f():\n        class C:\n            x = y\n        return C\n"
    b"except ImportError:\n    pass\nwith ctx:\n    def k(): return z\n"
    b"    def m():\n        from . import q\n        return q\n",
    b"from __future__ import annotations\ndef f(x: A) -> B:\n    def g(y: C): pass\n"
    b"    return g\ndef last():\n    return (\n1)",
    # its bytes C3 A9 are "\xc3\xa9" in latin-1, but "\xe9" read as UTF-8
    "# -*- coding: latin-1 -*-\ndef f(a='\xc3\xa9'):\n    return a\ndef g():\n    pass\n"
    .encode("latin-1"),
)


def _without_reads(value):
    """Facts with every Use event left out, at any depth."""
    if isinstance(value, tuple):
        return tuple(_without_reads(v) for v in value if not isinstance(v, Use))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple((f.name, _without_reads(getattr(value, f.name)))
                     for f in dataclasses.fields(value))
    return value


def test_functions_load_one_at_a_time_when_bytecode_proves_the_source(tmp_path):
    from importsafe.static.parse import FunctionsOnDemand
    from importsafe.static.discover import ModuleInfo
    path = tmp_path / "m.py"
    path.write_bytes(b"import os\n\ndef f():\n    return os.sep\n\ndef g():\n    return 2\n")
    info = ModuleInfo("m", str(path), "module", str(tmp_path))
    without = FunctionsOnDemand(info, (3, 11))
    assert without[("f", 3)].body and without.every is not None  # one whole parse
    py_compile.compile(str(path), cfile=bytecode_paths(str(path))[0], doraise=True)
    alone = FunctionsOnDemand(info, (3, 11))
    assert repr(alone[("f", 3)]) == repr(without[("f", 3)])
    assert alone.every is None and set(alone.one) == {("f", 3)}
    assert sorted(alone) == [("f", 3), ("g", 6)]
    # told the module's `from __future__ import annotations`: each def's lines parsed alone
    by_lines = FunctionsOnDemand(info, (3, 11), False)
    assert repr(by_lines[("g", 6)]) == repr(without[("g", 6)])
    assert by_lines.every is None and set(by_lines.spans) == {3, 6}
    # and told where the defs lie, as the parse stage found them: no scan of the source
    stubbed = facts_from_source(path.read_bytes(), "m", str(path), False, bodies=False,
                                compiles=True)
    assert [line for line, _, _ in stubbed.def_spans] == [3, 6]
    told = FunctionsOnDemand(info, (3, 11), False, stubbed.def_spans)
    assert repr(told[("f", 3)]) == repr(without[("f", 3)])
    assert repr(told[("g", 6)]) == repr(without[("g", 6)])
    assert not told.scanned
    # a def the parse stage did not place (under an `if`) sends it to the scan
    path.write_bytes(b"import os\nif os:\n    def f():\n        return os.sep\n")
    py_compile.compile(str(path), cfile=bytecode_paths(str(path))[0], doraise=True)
    stubbed = facts_from_source(path.read_bytes(), "m", str(path), False, bodies=False,
                                compiles=True)
    assert stubbed.def_spans == ()
    told = FunctionsOnDemand(info, (3, 11), False, stubbed.def_spans)
    assert told[("f", 3)].body and told.scanned
