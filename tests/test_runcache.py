"""The run cache (runcache.py): an unchanged tree gets the stored report without the analyser
running; every kind of change that can alter the report makes the next run a full one."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from importsafe import api
from importsafe.store.runs import RACY_NS

ROOT = Path(__file__).resolve().parents[1]

PACKAGE = {
    "pkg/__init__.py": "from . import a\n",
    "pkg/a.py": "from pkg.b import B\nA = 1\n",
    "pkg/b.py": "from pkg.a import A\nB = 2\n",
    "pkg/data/readme.txt": "not Python\n",
    "pkg/b/notes.txt": "a directory beside b.py: b.py is the module while it has no __init__\n",
}


def write_tree(base: Path, files: dict[str, str]) -> None:
    """The files, and the cache directory beside them made now: making it during a run
    would change the source root's listing within the racy window (not stored then)."""
    (base / ".cache").mkdir(parents=True)
    for rel, text in files.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


class Spy:
    """Counts full runs (api.load) while delegating to the real one."""

    def __init__(self, monkeypatch):
        self.calls = 0
        real = api.load

        def load(*args, **kwargs):
            self.calls += 1
            return real(*args, **kwargs)
        monkeypatch.setattr(api, "load", load)


def same_size_edit(path: Path) -> None:
    """Rewrite a file with other bytes of the same length, then put its mtime back."""
    st = path.stat()
    text = path.read_text()
    path.write_text(text.replace("B = 2", "B = 3"))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


CHANGES = {
    "same-size edit, mtime restored": lambda d: same_size_edit(d / "pkg/b.py"),
    "module added": lambda d: (d / "pkg/c.py").write_text("from pkg import a\n"),
    "module removed": lambda d: (d / "pkg/b.py").unlink(),
    "Python in a directory that had none": lambda d: (d / "pkg/data/x.py").write_text("X = 1\n"),
    "project file created above": lambda d: (d / "setup.cfg").write_text("[metadata]\n"),
    "__init__.py beside a module of the same name": lambda d: (d / "pkg/b/__init__.py")
    .write_text("B = 5\n"),
}


def test_unchanged_tree_is_answered_without_analysing_and_changes_are_seen(tmp_path, monkeypatch):
    trees = {}
    for k, name in enumerate(["unchanged", *CHANGES]):
        base = tmp_path / f"t{k}"
        write_tree(base, PACKAGE)
        trees[name] = base
    time.sleep(RACY_NS / 1e9 + 0.1)  # older than the racy window: a run may be stored
    spy = Spy(monkeypatch)
    first = {}
    for name, base in trees.items():
        first[name] = api.check([str(base / "pkg")], cache_dir=str(base / ".cache"))
    assert spy.calls == len(trees)
    assert any(r.outcome == "error" for r in first["unchanged"].results)

    again = api.check([str(trees["unchanged"] / "pkg")], cache_dir=str(trees["unchanged"] / ".cache"))
    assert spy.calls == len(trees), "an unchanged tree must not be analysed again"
    assert again == first["unchanged"]

    for name, change in CHANGES.items():
        base = trees[name]
        change(base)
        before = spy.calls
        got = api.check([str(base / "pkg")], cache_dir=str(base / ".cache"))
        assert spy.calls == before + 1, f"{name}: the stored run was reused"
        fresh = api.check([str(base / "pkg")])  # no cache at all
        assert got == fresh, name
    # the edits changed what is reported, so the misses above were needed
    assert got_entries(trees["module added"]) > got_entries(trees["unchanged"])
    assert got_entries(trees["Python in a directory that had none"]) > got_entries(trees["unchanged"])


def got_entries(base: Path) -> set[str]:
    return {r.entry for r in api.check([str(base / "pkg")]).results}


def test_other_arguments_are_other_runs(tmp_path, monkeypatch):
    write_tree(tmp_path, PACKAGE)
    time.sleep(RACY_NS / 1e9 + 0.1)
    spy = Spy(monkeypatch)
    cache = str(tmp_path / ".cache")
    both = api.check([str(tmp_path / "pkg")], cache_dir=cache)
    bare = api.check([str(tmp_path / "pkg")], modes=("bare",), cache_dir=cache)
    assert spy.calls == 2
    assert {r.mode for r in bare.results} == {"bare"} != {r.mode for r in both.results}
    assert api.check([str(tmp_path / "pkg")], modes=("bare",), cache_dir=cache) == bare
    assert spy.calls == 2


def test_recent_change_is_not_stored(tmp_path, monkeypatch):
    """Within the racy window a same-size rewrite could keep mtime and size: no stored run."""
    write_tree(tmp_path, PACKAGE)
    spy = Spy(monkeypatch)
    cache = str(tmp_path / ".cache")
    api.check([str(tmp_path / "pkg")], cache_dir=cache)
    api.check([str(tmp_path / "pkg")], cache_dir=cache)
    assert spy.calls == 2


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_cli_warm_run_loads_no_analyser(tmp_path, fmt):
    """The command line answers a warm run before importing the analyser: the point of the
    run cache is a warm `importsafe check` in tens of milliseconds (the text format needs rich,
    JSON not even that)."""
    write_tree(tmp_path, PACKAGE)
    time.sleep(RACY_NS / 1e9 + 0.1)
    code = ("import sys; sys.argv[0] = 'importsafe'\n"
            "from importsafe.cli import cli\n"  # main() would end the process at once
            "try:\n    cli()\nexcept SystemExit as exc:\n    status = exc.code\n"
            "heavy = sorted(m for m in sys.modules if m.startswith(('importsafe.static.simulate',"
            " 'importsafe.static.facts', 'importsafe.dynamic'" + (", 'rich'" if fmt == "json" else "")
            + ")))\n"
            "print('LOADED', heavy, status, file=sys.stderr)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    args = ["check", str(tmp_path / "pkg"), "--format", fmt, "--cache-dir", str(tmp_path / ".cache")]
    runs = [subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                           env=env, cwd=tmp_path) for _ in range(2)]
    assert runs[0].stdout == runs[1].stdout and "pkg.a" in runs[0].stdout
    assert "LOADED [" in runs[0].stderr and "importsafe.static.simulate" in runs[0].stderr
    assert "LOADED [] 1" in runs[1].stderr, runs[1].stderr


def test_a_changed_file_is_read_again_and_the_others_are_not(tmp_path, monkeypatch):
    """After an edit, the stored run lends the digests of the files whose signature did not
    change (their facts come from the facts cache unread) and the results whose keys did not
    change; the edited file is read again, and the report equals a fresh one."""
    from importsafe.store.runs import RunCache, check_arguments
    write_tree(tmp_path, PACKAGE)
    time.sleep(RACY_NS / 1e9 + 0.1)
    cache = str(tmp_path / ".cache")
    pkg = tmp_path / "pkg"
    api.check([str(pkg)], cache_dir=cache)
    (pkg / "b.py").write_text("B = 2\n")  # the cycle is gone
    runs = RunCache(cache, check_arguments([str(pkg)], ("normal", "bare"), (), (3, 11), (), None))
    previous = runs.previous()
    assert set(previous.digests) == {str(pkg / "__init__.py"), str(pkg / "a.py")}
    opened = []
    real_open, real_os_open = open, os.open

    def spy(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    def os_spy(file, *args, **kwargs):  # parse.read_bytes reads sources with os.open
        opened.append(str(file))
        return real_os_open(file, *args, **kwargs)
    monkeypatch.setattr("builtins.open", spy)
    monkeypatch.setattr("os.open", os_spy)
    got = api.check([str(pkg)], cache_dir=cache, jobs=1)
    monkeypatch.undo()
    sources = {f for f in opened if f.endswith(".py")}
    assert sources == {str(pkg / "b.py")}, sources
    assert got == api.check([str(pkg)]) and not got.failed


def test_edits_after_a_stored_run_give_fresh_reports_on_random_packages(tmp_path):
    """With the stored run trusted (files older than the racy window), unchanged modules come
    from their summaries and their facts load only when a simulation reads them (LazyFacts);
    random edits must still give exactly the fresh report, in all three modes."""
    import random
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    import randpkg
    from importsafe.report.json import to_dict
    from importsafe.static.events import LazyFacts
    packages = {seed: randpkg.write(randpkg.generate(seed), tmp_path / f"s{seed}")
                for seed in range(300, 316)}
    time.sleep(RACY_NS / 1e9 + 0.1)
    modes = ("normal", "bare", "lazy")
    lazy_seen = 0
    for seed, pkg in packages.items():
        cache = str(tmp_path / f"cache{seed}")
        api.check([str(pkg)], modes=modes, cache_dir=cache, jobs=1)
        rng = random.Random(seed)
        for _ in range(3):
            sources = [f for f in sorted(pkg.rglob("*.py")) if len(f.read_text().splitlines()) > 1]
            victim = rng.choice(sources)
            lines = victim.read_text().splitlines()
            del lines[rng.randrange(1, len(lines))]
            victim.write_text("\n".join(lines) + "\n")
            real_load = api.load
            seen = []

            def spy(*args, **kwargs):
                loaded = real_load(*args, **kwargs)
                seen.append(isinstance(loaded.program.facts, LazyFacts)
                            and bool(loaded.program.facts._pending))
                return loaded
            api.load = spy
            try:
                warm = to_dict(api.check([str(pkg)], modes=modes, cache_dir=cache, jobs=1))
            finally:
                api.load = real_load
            lazy_seen += any(seen)
            assert warm == to_dict(api.check([str(pkg)], modes=modes, jobs=1)), (seed, victim)
    assert lazy_seen >= 16, "unchanged modules were not taken from their summaries"


def replace_file(path: Path, text: str) -> None:
    """Save as editors do: a new file renamed into place (the directory's mtime moves)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def test_a_directory_whose_listing_is_unchanged_keeps_its_scan(tmp_path):
    """A file replaced by a rename, an editor's swap file and a `__pycache__` move the
    directory's mtime, but it lists the same possible modules: the stored scan of the
    package is reused. An added module is not."""
    from importsafe.store.runs import RunCache, check_arguments
    write_tree(tmp_path, PACKAGE)
    time.sleep(RACY_NS / 1e9 + 0.1)
    cache = str(tmp_path / ".cache")
    pkg = tmp_path / "pkg"
    arguments = check_arguments([str(pkg)], ("normal", "bare"), (), (3, 11), (), None)
    api.check([str(pkg)], cache_dir=cache)
    mtime = os.stat(pkg).st_mtime_ns
    time.sleep(0.01)
    replace_file(pkg / "b.py", "B = 2\n")
    (pkg / ".b.py.swp").write_text("an editor's swap file\n")
    (pkg / "__pycache__").mkdir()
    assert os.stat(pkg).st_mtime_ns != mtime
    previous = RunCache(cache, arguments).previous()
    assert len(previous.scans) == 1, "the package's scan is kept"
    got = api.check([str(pkg)], cache_dir=cache)
    assert got == api.check([str(pkg)]) and not got.failed
    time.sleep(RACY_NS / 1e9 + 0.1)
    replace_file(pkg / "c.py", "from pkg import a\n")  # a new module: the listing differs
    assert RunCache(cache, arguments).previous().scans == {}
    got = api.check([str(pkg)], cache_dir=cache)
    assert "pkg.c" in {r.entry for r in got.results} and got == api.check([str(pkg)])
