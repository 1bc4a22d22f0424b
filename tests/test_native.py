"""The native libraries the fork runner's zygote loads before any job (dynamic/native.py).

A package is built with the C compiler: an extension module `_ext` that links a library with
no Python in it (`libplain` through `libdep`) and one that calls the C API (`libpy`), found
through `$ORIGIN/lib` as wheels ship them. Each library's constructor appends to a log, so
the tests see who loaded what, and how many times.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from importsafe import api
from importsafe.dynamic.native import preloadable, read_dynamic

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("cc") is None,
    reason="builds ELF shared objects with cc (Linux)")

LOGGING = """
#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void logged(void) {
    const char *path = getenv("NATIVE_LOG");
    if (path) { FILE *f = fopen(path, "a"); if (f) { fputs("%s\\n", f); fclose(f); } }
}
"""
SOURCES = {
    "plain.c": LOGGING % "plain" + "int plain_value(void) { return 2; }\n",
    "dep.c": "int plain_value(void);\nint dep_value(void) { return plain_value() + 1; }\n",
    "py.c": "#include <Python.h>\n" + LOGGING % "py" +
            "int py_value(void) { PyObject *o = PyLong_FromLong(1); long v = PyLong_AsLong(o);"
            " Py_DECREF(o); return (int)v; }\n",
    "unused.c": "int unused_value(void) { return 5; }\n",
    "ext.c": """#include <Python.h>
int dep_value(void); int py_value(void);
static PyObject *value(PyObject *self, PyObject *args) {
    return PyLong_FromLong(dep_value() + py_value());
}
static PyMethodDef methods[] = {{"value", value, METH_NOARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "_ext", NULL, -1, methods};
PyMODINIT_FUNC PyInit__ext(void) {
    /* a submodule only the C code knows of, as torch._C._jit_tree_views */
    PyObject *inner = PyModule_New("npkg._ext.inner");
    if (inner == NULL || PyDict_SetItemString(PyImport_GetModuleDict(), "npkg._ext.inner",
                                              inner) < 0) return NULL;
    Py_DECREF(inner);
    return PyModule_Create(&def);
}
""",
}


def _cc(*args: str, cwd: Path) -> None:
    subprocess.run(["cc", "-shared", "-fPIC", "-Wl,--no-as-needed", *args], cwd=cwd,
                   check=True, capture_output=True)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("native")
    pkg, src = root / "npkg", root / "csrc"
    (pkg / "lib").mkdir(parents=True)
    src.mkdir()
    for name, text in SOURCES.items():
        (src / name).write_text(text)
    include = "-I" + sysconfig.get_paths()["include"]
    lib = str(pkg / "lib")
    _cc("-o", f"{lib}/libplain.so", "plain.c", cwd=src)
    _cc("-o", f"{lib}/libdep.so", "dep.c", f"-L{lib}", "-lplain", "-Wl,-rpath,$ORIGIN",
        cwd=src)
    _cc("-o", f"{lib}/libpy.so", "py.c", include, cwd=src)
    _cc("-o", f"{lib}/libunused.so", "unused.c", cwd=src)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    _cc("-o", str(pkg / ("_ext" + suffix)), "ext.c", include, f"-L{lib}", "-ldep", "-lpy",
        "-Wl,-rpath,$ORIGIN/lib", cwd=src)
    (pkg / "lib" / "broken.so").write_bytes(b"\x7fELF\x02\x01\x01" + b"\0" * 20)  # truncated
    (pkg / "lib" / "text.so").write_text("not a shared object\n")
    files = {
        "__init__.py": "from . import a\n",
        "a.py": "from npkg._ext import value\nV = value()\n",
        "b.py": "import npkg._ext\nassert npkg._ext.value() == 4\n",
        "c.py": "X = 1\n",
        "d.py": "from npkg import nothing_here\n",
        "e.py": "import npkg._ext.inner\nfrom npkg._ext.inner import __name__ as INNER\n",
    }
    for name, text in files.items():
        (pkg / name).write_text(text)
    return pkg


def test_only_python_free_libraries_of_extension_modules_are_kept(built):
    lib = built / "lib"
    assert preloadable([str(built.parent)], ["npkg"]) == [
        str(lib / "libplain.so"), str(lib / "libdep.so")]  # dependencies first
    ext = read_dynamic(str(next(built.glob("_ext*.so"))))
    assert ext.extension and ext.python and "libdep.so" in ext.needed
    assert ext.search == (str(built / "lib"),)  # $ORIGIN expanded
    assert read_dynamic(str(lib / "libpy.so")).python
    assert not read_dynamic(str(lib / "libplain.so")).python
    assert read_dynamic(str(lib / "broken.so")) is None
    assert read_dynamic(str(lib / "text.so")) is None
    assert read_dynamic(str(lib / "missing.so")) is None


def test_the_zygote_loads_them_once_and_outcomes_stay_those_of_fresh_interpreters(
        built, tmp_path, monkeypatch):
    log = tmp_path / "native.log"
    monkeypatch.setenv("NATIVE_LOG", str(log))
    modes = ("normal", "bare")
    fork = api.run([str(built)], modes=modes, jobs=1)
    forked = log.read_text().split()
    log.unlink()
    fresh = api.run([str(built)], modes=modes, jobs=1, fork=False)
    fresh_loads = log.read_text().split()
    key = sorted((r.entry, r.mode, r.outcome, r.error and r.error.exception) for r in
                 fork.results)
    assert key == sorted((r.entry, r.mode, r.outcome, r.error and r.error.exception)
                         for r in fresh.results)
    outcome = {(r.entry, r.mode): r.outcome for r in fork.results}
    assert outcome[("npkg.b", "bare")] == outcome[("npkg.a", "normal")] == "ok"
    assert outcome[("npkg.d", "bare")] == "error"
    assert forked.count("plain") == 1  # in the zygote, before any job
    assert fresh_loads.count("plain") == fresh_loads.count("py") >= 3  # once per interpreter
    assert forked.count("py") >= 2  # a C-API library is never preloaded: each job loads it


def test_static_prediction_equals_cpython_on_the_extension_package(built):
    """Extension modules are opaque to the static side: every name exists, and so does
    every submodule their init may register (npkg._ext.inner)."""
    modes = ("normal", "bare")

    def key(report):
        return sorted((r.entry, r.mode, r.outcome, r.error and r.error.exception,
                       r.error and r.error.name) for r in report.results)
    static = api.check([str(built)], modes=modes)
    assert key(static) == key(api.run([str(built)], modes=modes, jobs=1))
    assert {(r.entry, r.mode): r.outcome for r in static.results}[("npkg.e", "bare")] == "ok"


def test_no_libraries_no_preload(tmp_path):
    (tmp_path / "plainpkg").mkdir()
    (tmp_path / "plainpkg" / "__init__.py").write_text("")
    assert preloadable([str(tmp_path)], ["plainpkg"]) == []


MODULE_C = """#include <Python.h>
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "%(name)s", NULL, -1, NULL};
PyMODINIT_FUNC PyInit_%(name)s(void) {
    PyObject *m = PyModule_Create(&def);
    if (m != NULL && PyModule_AddIntConstant(m, "COMPILED", 1) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
"""


def test_an_extension_module_beats_the_source_of_the_same_name(tmp_path):
    """CPython's FileFinder tries extension modules before source (a package compiled in place
    by mypyc or Cython keeps its .py files beside the .so files): the static side must read
    the .so as what runs (opaque), for a module and for a package's `__init__`, as CPython
    does. The .py files would fail; the compiled modules do not."""
    pkg = tmp_path / "cpkg"
    (pkg / "sub").mkdir(parents=True)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    include = "-I" + sysconfig.get_paths()["include"]
    for name, out in (("fast", pkg / ("fast" + suffix)), ("sub", pkg / "sub" / ("__init__" + suffix))):
        (tmp_path / f"{name}.c").write_text(MODULE_C % {"name": name})
        _cc("-o", str(out), f"{name}.c", include, cwd=tmp_path)
    files = {
        "__init__.py": "",
        "fast.py": "from .user import NEEDED\n",  # shadowed: would fail (cycle)
        "user.py": "from .fast import COMPILED\nNEEDED = COMPILED\n",
        "sub/__init__.py": "from cpkg.sub.leaf import L\n",  # shadowed: would fail
        "sub/leaf.py": "from cpkg.sub import COMPILED\nL = COMPILED\n",
        "stubbed.py": "S = 1\n", "stubbed.pyi": "S: int\n",  # a stub never wins
        "only_stub_user.py": "from .stubbed import S\n",
    }
    for name, text in files.items():
        (pkg / name).write_text(text)
    modes = ("normal", "bare")
    static = api.check([str(pkg)], modes=modes)
    kinds = {i.name: i.kind for i in api.load([str(pkg)]).program.index.values()}
    assert kinds["cpkg.fast"] == "opaque" and kinds["cpkg.sub"] == "opaque-package"
    assert kinds["cpkg.stubbed"] == "module"

    def key(report):
        return sorted((r.entry, r.mode, r.outcome, r.error and r.error.exception,
                       r.error and r.error.name) for r in report.results)
    real = api.run([str(pkg)], modes=modes, jobs=1)
    assert key(static) == key(real)
    assert {r.entry for r in static.results} >= {"cpkg.user", "cpkg.sub.leaf"}
    assert not static.failed


def test_a_missing_submodule_of_an_extension_is_the_extension_assumption(built):
    """Static analysis lets an extension module register submodules of its own (as torch's
    do, through torch/__init__); where the real import finds none, verify reports IS203 (the
    assumption), not a disagreement."""
    from importsafe.dynamic.verify import compare
    from importsafe.model import ErrorInfo, Frame, Report, Result
    path = str(built / "f.py")
    ok = Result("npkg.f", "bare", "ok")
    real = Result("npkg.f", "bare", "error", ErrorInfo(
        "ModuleNotFoundError", "npkg._ext.unregistered", None,
        "No module named 'npkg._ext.unregistered'; 'npkg._ext' is not a package",
        (Frame("npkg.f", path, 1),)))
    roots = (str(built.parent),)
    found = compare(Report((ok,), (), "static", roots), Report((real,), (), "dynamic", roots))
    assert [d.code for d in found] == ["IS203"]
    plain = Result("npkg.f", "bare", "error", ErrorInfo(  # a source module's: a disagreement
        "ModuleNotFoundError", "npkg.c.unregistered", None, "No module named", (
            Frame("npkg.f", path, 1),)))
    found = compare(Report((ok,), (), "static", roots), Report((plain,), (), "dynamic", roots))
    assert [d.code for d in found] == ["IS201"]


def test_a_name_missing_from_a_compiled_module_is_the_extension_assumption(built):
    """Static analysis takes a compiled module of the analysed code (mypyc) to bind every
    name asked of it: a real AttributeError or ImportError naming it is IS203."""
    from importsafe.dynamic.verify import compare
    from importsafe.model import ErrorInfo, Frame, Report, Result
    ok = Result("npkg.f", "normal", "ok")
    real = Result("npkg.f", "normal", "error", ErrorInfo(
        "AttributeError", "npkg._ext", "Visitor",
        "partially initialized module 'npkg._ext' has no attribute 'Visitor'",
        (Frame("npkg.f", str(built / "f.py"), 1),)))
    roots = (str(built.parent),)
    found = compare(Report((ok,), (), "static", roots), Report((real,), (), "dynamic", roots))
    assert [d.code for d in found] == ["IS203"]


def test_a_failure_in_a_compiled_module_or_an_external_one_is_the_assumption(built, tmp_path):
    """A real failure raised at a statement importing a compiled module of the analysed code
    (its init read a bare package: numpy.random._bounded_integers), or inside an external
    module's own code, comes from what static analysis assumes of such modules: IS203."""
    from importsafe.dynamic.verify import compare
    from importsafe.model import ErrorInfo, Frame, Report, Result
    (built / "g.py").write_text("X = 1\nfrom . import _ext\n")
    roots = (str(built.parent),)
    ok = Result("npkg.g", "bare", "ok")

    def failing(frame):
        return Result("npkg.g", "bare", "error", ErrorInfo(
            "AttributeError", "npkg", "dtype", "module 'npkg' has no attribute 'dtype'",
            (frame,)))
    static = Report((ok,), (), "static", roots)
    at_import = failing(Frame("npkg.g", str(built / "g.py"), 2))
    elsewhere = failing(Frame("npkg.g", str(built / "g.py"), 1))
    external = failing(Frame("hypothesis.extra.numpy", str(tmp_path / "numpy.py"), 110))
    (built / "h.py").write_text("Y = 1\n")
    # the compiled module's init imported analysed code, which failed (scipy's
    # _decomp_interpolative importing scipy.sparse.linalg): the frame below it is source
    through = Result("npkg.g", "bare", "error", ErrorInfo(
        "AttributeError", "npkg", "dtype", "module 'npkg' has no attribute 'dtype'",
        (Frame("npkg.g", str(built / "g.py"), 2), Frame("npkg.h", str(built / "h.py"), 1))))
    codes = [[d.code for d in compare(static, Report((r,), (), "dynamic", roots))]
             for r in (at_import, elsewhere, external, through)]
    assert codes == [["IS203"], ["IS201"], ["IS203"], ["IS203"]]
