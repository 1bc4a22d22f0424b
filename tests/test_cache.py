"""Facts cached by content: same report warm and cold, edits invalidate, corruption is a miss."""
from pathlib import Path

import pytest

import importsafe.api as api
from importsafe.store.facts import EncodedFunctions
from importsafe.store.safety import CacheWarning
from importsafe.report.json import to_dict
from test_cli import EXAMPLE, run_cli, write


def test_warm_report_equals_cold_and_edits_invalidate(tmp_path):
    cache = tmp_path / "cache"
    cold = to_dict(api.check([str(EXAMPLE)], cache_dir=str(cache)))
    entries = list(cache.rglob("*.facts"))
    assert entries, "facts were cached"
    warm = to_dict(api.check([str(EXAMPLE)], cache_dir=str(cache)))
    assert warm == cold == to_dict(api.check([str(EXAMPLE)]))
    for entry in entries:  # corrupt every entry: each is then a miss, said once
        entry.write_bytes(b"not a cache entry")
    for run in cache.rglob("*.run"):
        run.unlink()
    with pytest.warns(CacheWarning, match="refused"):
        assert to_dict(api.check([str(EXAMPLE)], cache_dir=str(cache))) == cold


def test_an_edited_file_is_parsed_again(tmp_path):
    pkg = write(tmp_path, {"ed/__init__.py": "", "ed/a.py": "from . import b\nA = 1\n",
                           "ed/b.py": "from .a import A\n"}) / "ed"
    cache = str(tmp_path / "cache")
    assert api.check([str(pkg)], cache_dir=cache).result("ed.a", "bare").outcome == "error"
    (pkg / "b.py").write_text("def f():\n    from .a import A\n    return A\n")
    assert api.check([str(pkg)], cache_dir=cache).result("ed.a", "bare").outcome == "ok"


def test_an_edited_lazy_loader_stub_is_read_again(tmp_path):
    """attach_stub's `.pyi` decides the module's __getattr__: the run cache, which watches the
    source file, must not keep facts made from an older stub."""
    stub = "from . import plain\n"
    pkg = write(tmp_path, {
        "lazy_loader.py": "def attach_stub(name, file):\n    raise NotImplementedError\n",
        "st/__init__.py": "import lazy_loader as lazy\n"
                          "__getattr__, __dir__, __all__ = lazy.attach_stub(__name__, __file__)\n",
        "st/__init__.pyi": stub, "st/plain.py": "Z = 1\n",
        "st/user.py": "import st\nz = st.plain.Z\n"}) / "st"
    cache = str(tmp_path / "cache")
    for _ in range(2):
        assert api.check([str(pkg)], cache_dir=cache).result("st.user", "normal").outcome == "ok"
    (pkg / "__init__.pyi").write_text("from . import other\n")
    result = api.check([str(pkg)], cache_dir=cache).result("st.user", "normal")
    assert (result.outcome, result.error.name) == ("error", "plain")


def test_cli_cache_flags(tmp_path):
    proc = run_cli("check", EXAMPLE, "--cache-dir", tmp_path / "c", "--format", "json")
    assert proc.returncode == 1 and any(Path(tmp_path / "c").rglob("*.facts"))
    proc = run_cli("check", EXAMPLE, "--no-cache", "--cache-dir", tmp_path / "d")
    assert proc.returncode == 1 and not (tmp_path / "d").exists()


def _counting(monkeypatch) -> list:
    calls: list = []
    real = api.simulate_modules

    def counted(entry, mode, program, **options):
        calls.append((entry, mode))
        return real(entry, mode, program, **options)

    monkeypatch.setattr(api, "simulate_modules", counted)
    return calls


def test_warm_run_simulates_only_what_an_edit_can_reach(tmp_path, monkeypatch):
    """Results are cached by the sources their import can run: a warm run simulates nothing;
    after an edit, exactly the entries that can reach the edited module; a new module that an
    import names (absent before) invalidates its importers too."""
    files = {"wr/__init__.py": "", "wr/a.py": "from . import b\nA = 1\n",
             "wr/b.py": "from .a import A\n", "wr/c.py": "C = 1\n",
             "wr/d.py": "try:\n    import wr.e\nexcept ImportError:\n    pass\n"}
    pkg = write(tmp_path, files) / "wr"
    cache = str(tmp_path / "cache")
    calls = _counting(monkeypatch)
    cold = to_dict(api.check([str(pkg)], cache_dir=cache, jobs=1))
    assert len(calls) == 9  # 5 entries x 2 modes, but the top-level bare run is its normal one
    del calls[:]
    assert to_dict(api.check([str(pkg)], cache_dir=cache, jobs=1)) == cold and calls == []
    (pkg / "c.py").write_text("C = 2\n")
    api.check([str(pkg)], cache_dir=cache, jobs=1)
    assert sorted(calls) == [("wr.c", "bare"), ("wr.c", "normal")]
    del calls[:]
    (pkg / "b.py").write_text("def f():\n    from .a import A\n    return A\n")
    warm = api.check([str(pkg)], cache_dir=cache, jobs=1)
    assert sorted({e for e, _ in calls}) == ["wr.a", "wr.b"]
    assert to_dict(warm) == to_dict(api.check([str(pkg)], jobs=1))
    del calls[:]
    (pkg / "e.py").write_text("E = 1\n")  # named by d.py's import, absent until now
    api.check([str(pkg)], cache_dir=cache, jobs=1)
    assert sorted({e for e, _ in calls}) == ["wr.d", "wr.e"]


def test_cached_results_equal_fresh_ones_on_random_packages(tmp_path):
    """Edit random modules of random packages between runs: the cached-results report always
    equals a report computed from scratch."""
    import random
    import randpkg
    for seed in range(24):
        pkg = randpkg.write(randpkg.generate(seed), tmp_path / f"s{seed}")
        cache = str(tmp_path / f"cache{seed}")
        modes = ("normal", "bare", "lazy")
        api.check([str(pkg)], modes=modes, cache_dir=cache, jobs=1)
        rng = random.Random(seed)
        for _ in range(3):
            sources = [f for f in sorted(pkg.rglob("*.py")) if len(f.read_text().splitlines()) > 1]
            inits = [f for f in sources if f.name == "__init__.py"]  # bare keys skip these
            victim = rng.choice(inits if inits and rng.random() < 0.5 else sources)
            lines = victim.read_text().splitlines()
            del lines[rng.randrange(1, len(lines))]  # drop a line (keeps the docstring)
            victim.write_text("\n".join(lines) + "\n")
            warm = to_dict(api.check([str(pkg)], modes=modes, cache_dir=cache, jobs=1))
            assert warm == to_dict(api.check([str(pkg)], modes=modes, jobs=1)), (seed, victim)


def test_a_copy_of_the_tree_elsewhere_gets_its_own_paths(tmp_path):
    files = {"cp/__init__.py": "", "cp/a.py": "from . import b\nA = 1\n",
             "cp/b.py": "from .a import A\n"}
    cache = str(tmp_path / "cache")
    for where in ("one", "two"):
        pkg = write(tmp_path / where, files) / "cp"
        err = api.check([str(pkg)], cache_dir=cache).result("cp.a", "bare").error
        assert all(Path(f.file).is_relative_to(tmp_path / where) for f in err.chain), err.chain


def test_an_edit_re_simulates_only_the_runs_that_created_the_module(tmp_path, monkeypatch):
    """A result depends on the modules its run created, not on every module its imports could
    reach: d.py names b only inside a function it never calls, so an edit of b.py leaves d's
    results alone; a new module re-simulates the runs whose imports looked for it. Every
    report equals a fresh one."""
    files = {"tc/__init__.py": "", "tc/a.py": "from tc import b\nA = 1\n", "tc/b.py": "B = 1\n",
             "tc/c.py": "from tc import a\nC = 1\n",
             "tc/d.py": "def f():\n    from tc import b\n    return b\nD = 1\n",
             "tc/e.py": "try:\n    from tc import missing\nexcept ImportError:\n    pass\n"
                        "from tc import b\n"}
    pkg = write(tmp_path, files) / "tc"
    cache = str(tmp_path / "cache")
    calls = _counting(monkeypatch)
    api.check([str(pkg)], cache_dir=cache, jobs=1)
    for edit, text, expected in (("b.py", "B = 2\n", {"tc.a", "tc.b", "tc.c", "tc.e"}),
                                 # d too: function bodies' imports are read as a superset
                                 # (`from tc import b` there counts as any module of tc)
                                 ("missing.py", "M = 1\n", {"tc.d", "tc.e", "tc.missing"})):
        del calls[:]
        (pkg / edit).write_text(text)
        warm = api.check([str(pkg)], cache_dir=cache, jobs=1)
        assert sorted(calls) == sorted((e, m) for e in expected for m in ("normal", "bare")), edit
        assert to_dict(warm) == to_dict(api.check([str(pkg)], jobs=1))


def test_function_bodies_load_one_function_at_a_time(tmp_path):
    """A function called at import time has its body loaded from the cache on its own (the
    module's other bodies stay encoded), and an edit of that body is seen."""
    files = {"fb/__init__.py": "",
             "fb/a.py": "def setup():\n    from . import b\n    return b.B\n\n"
                        "def unused():\n    from . import c\n\nX = setup()\n",
             "fb/b.py": "from .a import X\nB = 1\n", "fb/c.py": "C = 1\n"}
    pkg = write(tmp_path, files) / "fb"
    cache = str(tmp_path / "cache")
    cold = api.check([str(pkg)], jobs=1)
    assert cold.result("fb.a", "bare").outcome == "error"  # b reads X before a binds it
    assert to_dict(api.check([str(pkg)], cache_dir=cache, jobs=1)) == to_dict(cold)
    (pkg / "c.py").write_text("C = 2\n")  # a miss of the run cache: bodies come from the cache
    loaded = api.load([str(pkg)], cache_dir=cache, jobs=1)
    program = loaded.program
    stub = next(ev.func for ev in program.facts["fb.a"].body if getattr(ev, "name", "") == "setup")
    assert stub.body is None
    assert program.function_body("fb.a", stub).body  # loaded on the call
    functions = program._bodies["fb.a"]
    assert isinstance(functions, EncodedFunctions)
    assert set(functions.loaded) == {("setup", 1)} and len(functions.blobs) == 2
    (pkg / "a.py").write_text(files["fb/a.py"].replace("return b.B", "return 1")
                              .replace("from . import b", "pass"))
    assert api.check([str(pkg)], cache_dir=cache, jobs=1).result("fb.a", "bare").outcome == "ok"


def test_a_torch_op_defined_elsewhere_keys_the_results_that_read_it(tmp_path, monkeypatch):
    # chunker's first import never creates inductor_prims, yet its result depends on
    # whether that module's top-level code defines prims.fma
    import shutil
    root = tmp_path / "tree"
    shutil.copytree(Path(__file__).parent / "cases" / "torch_ops", root)
    prims = root / "torch" / "_inductor" / "inductor_prims.py"
    defined = prims.read_text()
    prims.write_text(defined.replace("fma = make_prim(", "def later():\n    return make_prim("))
    cache = str(tmp_path / "cache")
    entry = "torch._inductor.chunker"
    assert api.check([str(root / "torch")], cache_dir=cache).result(
        entry, "normal").outcome == "ok"  # no code of the tree defines prims.fma: C++ may
    prims.write_text(defined)
    assert api.check([str(root / "torch")], cache_dir=cache).result(
        entry, "normal").outcome == "error"
