"""Plugin discovery over a package's own directory (static/dirlisting.py, static/listed.py):
the listing read at check time, its order as an assumption, and the caches keyed on it."""
import os
import time

from importsafe import api
from importsafe.static.discover import DirListing
from importsafe.static.dirlisting import Listings, StdFunction
from importsafe.static.purefn import BUILTINS, compile_expr, evaluate, NoValue

import ast
import pytest

SCANNER = '''\
from importlib import import_module
from os import listdir
from os.path import dirname

for _file in sorted(listdir(dirname(__file__))):
    if _file.endswith(".py") and _file != "__init__.py":
        import_module("." + _file[:-3], __name__)

DONE = True
'''


def _package(tmp_path, name="scn"):
    pkg = tmp_path / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text(SCANNER)
    (pkg / "a.py").write_text("X = 1\n")
    return pkg


def test_a_new_file_in_the_listed_directory_changes_the_answer(tmp_path):
    pkg = _package(tmp_path)
    cache = str(tmp_path / "cache")
    assert api.check([str(pkg)], modes=("normal",), cache_dir=cache).result(
        "scn", "normal").outcome == "ok"
    time.sleep(0.01)
    (pkg / "b.py").write_text("from scn import DONE\n")  # imported by the scan: a cycle
    for _ in range(2):  # the run cache, then the results cache
        result = api.check([str(pkg)], modes=("normal",), cache_dir=cache).result(
            "scn", "normal")
        assert result.outcome == "error" and result.error.name == "DONE"


def test_a_new_data_file_keys_the_results_of_the_module_that_lists(tmp_path):
    """A file that is no module changes the listing, so the stored result is not reused
    (here the answer stays: the scan filters it out)."""
    pkg = _package(tmp_path)
    cache = str(tmp_path / "cache")
    api.check([str(pkg)], modes=("normal",), cache_dir=cache)
    (pkg / "notes.txt").write_text("")
    fresh = api.check([str(pkg)], modes=("normal",))
    assert api.check([str(pkg)], modes=("normal",), cache_dir=cache).results == fresh.results


def test_a_package_listed_through_its_file_keys_the_results_on_its_listing(tmp_path):
    """A helper elsewhere lists the directory of the package it is given (`mod.__file__`):
    a data file added there changes what it imports, and neither cache keeps the old answer."""
    root = tmp_path / "hp"
    (root / "kernel").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "utils.py").write_text(
        "import importlib, os\n\ndef load(mod):\n"
        "    for f in sorted(os.listdir(os.path.dirname(mod.__file__))):\n"
        "        if f.endswith('.plug'):\n"
        "            importlib.import_module(mod.__name__ + '.' + f[:-5])\n")
    (root / "main.py").write_text("from . import kernel\nfrom .utils import load\n"
                                  "load(kernel)\nDONE = True\n")
    (root / "kernel" / "__init__.py").write_text("")
    (root / "kernel" / "b.py").write_text("from ..main import DONE\n")
    _added_file_breaks_it_in_both_caches(tmp_path, root, "hp.main", root / "kernel" / "b.plug")


def _added_file_breaks_it_in_both_caches(tmp_path, root, entry: str, added) -> None:
    """`entry` imports, then fails on `DONE` once the file `added` exists: so says a check
    through the run cache, then one through the results cache."""
    cache = str(tmp_path / "cache")
    assert api.check([str(root)], modes=("normal",), cache_dir=cache).result(
        entry, "normal").outcome == "ok"
    time.sleep(0.01)
    added.write_text("")
    for _ in range(2):  # the run cache, then the results cache
        result = api.check([str(root)], modes=("normal",), cache_dir=cache).result(
            entry, "normal")
        assert result.outcome == "error" and result.error.name == "DONE", result


def test_a_subpackage_listed_from_its_parent_keys_the_results_on_its_listing(tmp_path):
    """`os.listdir(os.path.join(os.path.dirname(__file__), "plugins"))`: nothing imports the
    subpackage unless its listing names a plugin, so the lister's results must be keyed on
    that listing, in both caches."""
    root = tmp_path / "sp"
    (root / "plugins").mkdir(parents=True)
    (root / "__init__.py").write_text(
        "import importlib, os\n\n"
        "for f in sorted(os.listdir(os.path.join(os.path.dirname(__file__), 'plugins'))):\n"
        "    if f.endswith('.plug'):\n"
        "        importlib.import_module('sp.plugins.' + f[:-5])\n"
        "DONE = True\n")
    (root / "plugins" / "__init__.py").write_text("")
    (root / "plugins" / "b.py").write_text("from sp import DONE\n")
    _added_file_breaks_it_in_both_caches(tmp_path, root, "sp", root / "plugins" / "b.plug")


def test_unsorted_order_is_assumed_and_strict_refuses_it(tmp_path):
    pkg = _package(tmp_path)
    text = SCANNER.replace("sorted(listdir(dirname(__file__)))", "listdir(dirname(__file__))")
    (pkg / "__init__.py").write_text(text)
    result = api.check([str(pkg)], modes=("normal",)).result("scn", "normal")
    assert result.outcome == "ok"
    assert [(a.kind, a.name) for a in result.assumes] == [("listing", str(pkg))]
    strict = api.check([str(pkg)], modes=("normal",), strict=True).result("scn", "normal")
    assert strict.outcome == "unknown" and "file system's order" in strict.reason
    assert api.check([str(pkg)], modes=("normal",)).result("scn", "normal").outcome == "ok"


def test_sorted_listing_assumes_nothing(tmp_path):
    pkg = _package(tmp_path)
    result = api.check([str(pkg)], modes=("normal",)).result("scn", "normal")
    assert result.outcome == "ok" and result.assumes == ()


def _evaluate(text, listing, allowed="/d"):
    listings = Listings({"/d": listing})
    names = {name: ("func", StdFunction(name, listings, allowed)) for name in (
        "os.listdir", "glob.glob", "os.path.isfile", "os.path.isdir", "os.path.basename",
        "os.path.join", "os.path.splitext")}

    def resolve(scope, name):
        if name in names:
            return names[name]
        if name in BUILTINS:
            return ("func", BUILTINS[name])
        return ("std", name) if name in ("os", "glob") else None

    program = compile_expr(ast.parse(text, mode="eval").body)
    return evaluate(program, resolve, None), listings


LISTING = DirListing("/d", (("z.py", "f"), (".hidden.py", "f"), ("a.py", "f"), ("sub", "d"),
                            ("data.ini", "f")), False)


def test_the_modelled_calls_answer_as_cpython_does():
    assert _evaluate("os.listdir('/d')", LISTING)[0] == [
        "z.py", ".hidden.py", "a.py", "sub", "data.ini"]
    # glob leaves out hidden files, keeps the listing's order and joins the directory
    assert _evaluate("glob.glob('/d/*.py')", LISTING)[0] == ["/d/z.py", "/d/a.py"]
    assert _evaluate("[f.rstrip('.py') for f in os.listdir('/d') if os.path.isfile("
                     "os.path.join('/d', f))]", LISTING)[0] == [
        "z", ".hidden", "a", "data.ini"]  # rstrip strips characters
    assert _evaluate("os.path.isdir('/d/sub')", LISTING)[0] is True
    assert _evaluate("os.path.isfile('/d/missing.py')", LISTING)[0] is False


def test_a_listing_read_unsorted_is_noted_and_sorted_is_not():
    assert _evaluate("os.listdir('/d')", LISTING)[1].unsorted == {"/d": "os.listdir"}
    assert _evaluate("sorted(os.listdir('/d'))", LISTING)[1].unsorted == {}
    assert _evaluate("sorted(f for f in os.listdir('/d') if f.endswith('.py'))",
                     LISTING)[1].unsorted == {}
    assert _evaluate("sorted(list(os.listdir('/d')))", LISTING)[1].unsorted == {
        "/d": "os.listdir"}  # only a listing sorted right away counts


def test_another_directory_is_refused_with_the_reason():
    with pytest.raises(NoValue):
        _evaluate("os.listdir('/elsewhere')", LISTING)
    try:
        _evaluate("os.listdir('/d')", LISTING, allowed="/other")
    except NoValue as err:
        assert "not the directory of the module that lists it" in str(err)
    else:
        raise AssertionError("a directory that is not the module's own was listed")


def test_pycache_variants():
    listing = DirListing("/d", (("a.py", "f"),), True)
    values = [Listings({"/d": listing}, v).entries("/d", "/d", "os.listdir")
              for v in (0, 1, 2)]
    assert values == [(("a.py", "f"),), (("__pycache__", "d"), ("a.py", "f")),
                      (("a.py", "f"), ("__pycache__", "d"))]


def test_listing_reads_kinds_in_scandir_order(tmp_path):
    from importsafe.static.discover import read_listing
    (tmp_path / "m.py").write_text("")
    (tmp_path / "d").mkdir()
    found = read_listing(str(tmp_path))
    assert sorted(found.entries) == [("d", "d"), ("m.py", "f")]
    assert [n for n, _ in found.entries] == [e.name for e in os.scandir(tmp_path)]


def test_pathlib_paths_over_the_listing():
    names = {"pathlib.Path": None}
    listings = Listings({"/d": LISTING})
    path = ("func", StdFunction("pathlib.Path", listings, "/d"))

    def resolve(scope, name):
        if name == "Path":
            return path
        return ("func", BUILTINS[name]) if name in BUILTINS else None

    def run(text):
        return evaluate(compile_expr(ast.parse(text, mode="eval").body), resolve, None)
    # pathlib's glob matches hidden files too, unlike the glob module
    assert run("[p.stem for p in sorted(Path('/d').glob('*.py'))]") == [".hidden", "a", "z"]
    assert run("[p.name for p in Path('/d/x.py').parent.iterdir() if p.is_dir()]") == ["sub"]
    assert run("(Path('/d') / 'data.ini').is_file()") is True
    assert run("str(Path('/d') / 'z.py')") == "/d/z.py"
    assert listings.unsorted == {"/d": "Path.iterdir"}
    assert names


def test_an_unknown_computed_name_says_what_it_is_read_from(tmp_path):
    pkg = tmp_path / "why"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "import importlib\n\n\ndef _backend():\n    return CONFIG.get('backend')\n\n\n"
        "CONFIG = object()\nimportlib.import_module(_backend())\n")
    (pkg / "other.py").write_text(
        "import importlib\nname = object()\nimportlib.import_module('why.' + name)\n")
    report = api.check([str(pkg)], modes=("normal", "bare"))
    assert "(what _backend() returns is not known statically)" in \
        report.result("why", "normal").reason
    assert "('name' holds no string known statically there)" in \
        report.result("why.other", "bare").reason
