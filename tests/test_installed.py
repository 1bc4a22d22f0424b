"""Checking a package inside site-packages: other distributions installed there are external
(static/installed.py), the requested one's other top-level packages are analysed."""
from __future__ import annotations

from pathlib import Path

from importsafe import api
from importsafe.static.installed import analysed_tops, distributions


def _site(tmp_path: Path, with_metadata: bool = True) -> Path:
    site = tmp_path / "site-packages"
    files = {
        "mainpkg/__init__.py": "import helperpkg\nimport otherdist\nfrom mainpkg import mod\n",
        "mainpkg/mod.py": "from otherdist import VALUE\n",
        "helperpkg/__init__.py": "X = 1\n",
        "single.py": "Y = 2\n",
        # another distribution, importing back into mainpkg: analysed, it makes a cycle
        "otherdist/__init__.py": "from mainpkg.mod import nothing\nVALUE = 1\n",
    }
    if with_metadata:
        files.update({
            "mainpkg-1.0.dist-info/RECORD": "mainpkg/__init__.py,sha256=x,1\n"
                                            "mainpkg/mod.py,sha256=x,1\n"
                                            "helperpkg/__init__.py,sha256=x,1\n"
                                            "single.py,sha256=x,1\n"
                                            "mainpkg-1.0.dist-info/RECORD,,\n"
                                            "../../bin/tool,sha256=x,1\n",
            "otherdist-2.0.dist-info/RECORD": "otherdist/__init__.py,sha256=x,1\n",
            "old.egg-info/top_level.txt": "legacy\n",
        })
    for name, text in files.items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return site


def test_distributions_are_read_from_record(tmp_path):
    site = _site(tmp_path)
    assert sorted(map(sorted, distributions(str(site)))) == [
        ["helperpkg", "mainpkg", "single"], ["legacy"], ["otherdist"]]
    assert analysed_tops(str(site), {"mainpkg"}) == {"mainpkg", "helperpkg", "single"}
    assert analysed_tops(str(tmp_path), {"x"}) is None  # not an installation directory


def test_other_distributions_are_external_in_site_packages(tmp_path):
    site = _site(tmp_path)
    loaded = api.load([str(site / "mainpkg")])
    assert {"mainpkg", "mainpkg.mod", "helperpkg"} <= set(loaded.program.index)
    assert "otherdist" not in loaded.program.index  # assumed to import fine
    report = api.check([str(site / "mainpkg")], modes=("normal",))
    assert {r.entry: r.outcome for r in report.results} == {"mainpkg": "ok",
                                                            "mainpkg.mod": "ok"}


def test_without_metadata_every_package_of_the_root_is_analysed(tmp_path):
    site = _site(tmp_path, with_metadata=False)
    loaded = api.load([str(site / "mainpkg")])
    assert "otherdist" in loaded.program.index
    report = api.check([str(site / "mainpkg")], modes=("normal",))
    # otherdist imports back into the half-initialised mainpkg.mod: a real cycle, found
    assert {r.entry: r.outcome for r in report.results}["mainpkg.mod"] == "error"


def test_verify_treats_other_distributions_as_dependencies(tmp_path):
    """In site-packages, a failure inside another distribution's package (six.moves) comes
    from the external assumption (IS203), as the static run treats it, although the package
    is in the same root; with the root taken as a plain source root it would be a
    disagreement."""
    from importsafe.dynamic.verify import compare
    from importsafe.model import ErrorInfo, Frame, Report, Result
    (tmp_path / "six.py").write_text("")
    (tmp_path / "dateutil").mkdir()
    (tmp_path / "dateutil" / "__init__.py").write_text("")
    ok = Result("dateutil.win", "normal", "ok")
    real = Result("dateutil.win", "normal", "error", ErrorInfo(
        "ImportError", "six.moves", "winreg", "cannot import name 'winreg' from 'six.moves'",
        (Frame("dateutil.win", str(tmp_path / "dateutil" / "win.py"), 13),)))
    roots = (str(tmp_path),)
    static, dynamic = Report((ok,), (), "static", roots), Report((real,), (), "dynamic", roots)
    assert [d.code for d in compare(static, dynamic)] == ["IS201"]
    analysed = {str(tmp_path): frozenset({"dateutil"})}
    assert [d.code for d in compare(static, dynamic, (), analysed)] == ["IS203"]


def test_installed_reads_the_import_path_statically(tmp_path, monkeypatch):
    """Versions.installed: stdlib and builtins, packages, modules and extensions on the
    source roots, site-packages, the directories `.pth` files add and PYTHONPATH; not known
    (None) where a zip archive is on the path or `.pth` code names the module in quotes."""
    from importsafe.static.installed import Versions
    root, site, extra, added = (tmp_path / n for n in ("root", "site", "extra", "added"))
    for d in (root, site, extra, added):
        d.mkdir()
    (root / "ownpkg").mkdir()
    (site / "dep.py").write_text("")
    (site / "native.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (site / "paths.pth").write_text(f"# a comment\n{added}\n")
    (site / "finder.pth").write_text("import _finder; _finder.install()\n")
    (site / "_finder.py").write_text("MAPPING = {'mapped': '/elsewhere/mapped'}\n")
    (extra / "frompath.py").write_text("")
    (added / "viapth").mkdir()
    monkeypatch.setenv("PYTHONPATH", str(extra))
    v = Versions.of_environment([str(root)])
    v._sites = (str(site),)  # this test's site-packages, not the interpreter's
    v.roots = (*v.roots, str(site))
    assert v.installed("os") is True and v.installed("sys") is True
    assert v.installed("ownpkg") is True and v.installed("dep") is True
    assert v.installed("native") is True and v.installed("frompath") is True
    assert v.installed("viapth") is True
    assert v.installed("mapped") is None  # an editable install's finder may provide it
    assert v.installed("importsafe_nowhere_xyz") is False
    assert "installed" in v.absent_why("importsafe_nowhere_xyz")
    zipped = Versions.of_environment([str(root)])
    archive = tmp_path / "deps.zip"
    import zipfile
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("inzip.py", "")
    zipped._extra = (*zipped._extra, str(archive))
    assert zipped.installed("importsafe_nowhere_xyz") is None
    assert Versions([str(root)]).installed("importsafe_nowhere_xyz") is None  # no environment
