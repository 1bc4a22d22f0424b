"""Names an extension module's C code binds in a Python module (torch._C._cuda_init() binds
torch.cuda's `_get_device_properties`): a function of a finished module that imports an
extension of the analysed tree reads such a name as bound (the ordinary-order rule, an
assumption of the result); a module still running does not get it. Built with the C
compiler, checked against CPython."""
from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from importsafe import api
from support import outcome_key, run_cpython
from importsafe.report.json import result_dict

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("cc") is None,
    reason="builds an extension module with cc (Linux)")

EXT = """#include <Python.h>
static PyObject *props(PyObject *self, PyObject *args) { return PyLong_FromLong(8); }
static PyMethodDef props_def = {"_props", props, METH_NOARGS, ""};
static PyObject *init(PyObject *self, PyObject *args) {
    /* binds xpkg.dev._props, as torch._C._cuda_init() binds torch.cuda's names */
    PyObject *dev = PyImport_ImportModule("xpkg.dev");
    if (dev == NULL) return NULL;
    PyObject *f = PyCFunction_New(&props_def, NULL);
    if (f == NULL || PyObject_SetAttrString(dev, "_props", f) < 0) return NULL;
    Py_DECREF(f); Py_DECREF(dev);
    Py_RETURN_NONE;
}
static PyObject *count(PyObject *self, PyObject *args) { return PyLong_FromLong(%d); }
static PyMethodDef methods[] = {{"_init", init, METH_NOARGS, ""},
                                {"count", count, METH_NOARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "_C", NULL, -1, methods};
PyMODINIT_FUNC PyInit__C(void) { return PyModule_Create(&def); }
"""

FILES = {
    "__init__.py": "",
    "dev.py": "import xpkg._C\n\n_initialized = False\n\n\n"
              "def available():\n    return xpkg._C.count() > 0\n\n\n"
              "def _lazy_init():\n    global _initialized\n    if _initialized:\n        return\n"
              "    xpkg._C._init()\n    _initialized = True\n\n\n"
              "def props():\n    _lazy_init()\n    return _props()\n",
    # the device count is not known statically: both ways, and props() reads _props
    "user.py": "from . import dev\n\n\ndef arch():\n    if not dev.available():\n"
               "        return 0\n    return dev.props()\n\n\nARCH = arch()\n",
    # a function of a module still running reads a name bound later: a NameError first
    "running.py": "import xpkg._C\n\n\ndef late():\n    return LATE\n\n\n"
                  "from . import reader\n\nLATE = 1\n",
    "reader.py": "from . import running\n\nV = running.late()\n",
}


def _package(root: Path, devices: int) -> Path:
    pkg = root / "xpkg"
    pkg.mkdir(parents=True)
    for name, text in FILES.items():
        (pkg / name).write_text(text)
    (root / "ext.c").write_text(EXT % devices)
    include = sysconfig.get_paths()["include"]
    target = pkg / ("_C" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run(["cc", "-shared", "-fPIC", f"-I{include}", "-o", str(target), "ext.c"],
                   cwd=root, check=True, capture_output=True)
    return pkg


@pytest.mark.parametrize("devices", [0, 1])
def test_a_name_the_extension_binds_is_assumed_in_a_finished_module(tmp_path, devices):
    pkg = _package(tmp_path, devices)
    entries = ["xpkg.dev", "xpkg.user", "xpkg.running", "xpkg.reader"]
    real = {r["entry"]: outcome_key(r) for r in run_cpython(
        [tmp_path], [(e, "normal") for e in entries])}
    report = api.check([str(pkg)], modes=("normal",))
    static = {e: outcome_key(result_dict(report.result(e, "normal"))) for e in entries}
    assert static == real
    assert real["xpkg.user"] == ("ok",)
    assert real["xpkg.running"] == ("error", "NameError", "xpkg.running", "LATE")
    assumed = report.result("xpkg.user", "normal").assumes
    assert [(a.module, a.name, a.kind) for a in assumed] == [("xpkg.dev", "_props", "order")]
    assert "extension module xpkg._C" in assumed[0].why
    strict = api.check([str(pkg)], modes=("normal",), strict=True).result("xpkg.user",
                                                                          "normal")
    assert strict.outcome == "unknown"


# numpy's shape: the extension's init calls back a Python helper of another module, which
# binds names of its own module with setattr() (numpy.dtypes._add_dtype_helper); nothing
# analysed calls the helper, yet its names are bound once the extension has loaded
CALLBACK_EXT = """#include <Python.h>
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "_core", NULL, -1, NULL};
PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&def);
    PyObject *types = PyImport_ImportModule("ypkg.types");
    if (m == NULL || types == NULL) return NULL;
    PyObject *r = PyObject_CallMethod(types, "_add_helper", "s", "BoolType");
    if (r == NULL) return NULL;
    Py_DECREF(r); Py_DECREF(types);
    /* imports a Python submodule, as numpy's core imports numpy._core._exceptions */
    PyObject *errors = PyImport_ImportModule("ypkg._errors");
    if (errors == NULL) return NULL;
    Py_DECREF(errors);
    return m;
}
"""

CALLBACK_FILES = {
    "__init__.py": "from . import _core\nfrom .docs import DOC\n",
    "types.py": "__all__ = []\n\n\ndef _add_helper(name):\n    from ypkg import types\n\n"
                "    setattr(types, name, type(name, (), {}))\n    __all__.append(name)\n",
    "docs.py": "from ypkg import types\n\nDOC = types.BoolType.__name__\n",
    # a helper nothing calls, in a module of a package without an extension: binds nothing
    "plain.py": "def _add(name):\n    from ypkg import plain\n\n"
                "    setattr(plain, name, 1)\n",
    "plain_user.py": "from ypkg import plain\n\nX = plain.Never\n",
    "_errors.py": "class Fail(Exception):\n    pass\n",
    "_unnamed.py": "",
    # submodules read through the finished package: one the binary names, one it does not
    "late.py": "import ypkg\n\nFAIL = ypkg._errors.Fail\n",
    "late_unnamed.py": "import ypkg\n\nX = ypkg._unnamed\n",
}


def test_a_helper_the_extension_calls_back_binds_names_of_its_module(tmp_path):
    pkg = tmp_path / "ypkg"
    pkg.mkdir()
    for name, text in CALLBACK_FILES.items():
        (pkg / name).write_text(text)
    (tmp_path / "ext.c").write_text(CALLBACK_EXT)
    include = sysconfig.get_paths()["include"]
    target = pkg / ("_core" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run(["cc", "-shared", "-fPIC", f"-I{include}", "-o", str(target), "ext.c"],
                   cwd=tmp_path, check=True, capture_output=True)
    entries = ["ypkg", "ypkg.docs", "ypkg.plain_user", "ypkg.late", "ypkg.late_unnamed"]
    real = {r["entry"]: outcome_key(r) for r in run_cpython(
        [tmp_path], [(e, "normal") for e in entries])}
    report = api.check([str(pkg)], modes=("normal",))
    static = {e: outcome_key(result_dict(report.result(e, "normal"))) for e in entries}
    assert static == real
    assert real["ypkg"] == real["ypkg.docs"] == ("ok",)
    assert real["ypkg.plain_user"] == ("error", "AttributeError", "ypkg.plain", "Never")
    assert real["ypkg.late"] == ("ok",)
    assert real["ypkg.late_unnamed"] == ("error", "AttributeError", "ypkg", "_unnamed")
    late = [a for a in report.result("ypkg.late", "normal").assumes if a.name == "_errors"]
    assert [(a.module, a.kind) for a in late] == [("ypkg", "order")]
    assert "names the module ypkg._errors" in late[0].why
    assumed = report.result("ypkg", "normal").assumes
    assert [(a.module, a.name, a.kind) for a in assumed] == [("ypkg.types", "BoolType",
                                                              "order")]
    assert "_add_helper()" in assumed[0].why and "ypkg._core" in assumed[0].why


def test_without_an_extension_a_helper_nothing_calls_binds_nothing(tmp_path):
    pkg = tmp_path / "ypkg"
    pkg.mkdir()
    for name, text in CALLBACK_FILES.items():
        (pkg / name).write_text(text.replace("from . import _core\n", ""))
    entries = ["ypkg", "ypkg.docs", "ypkg.late"]
    real = {r["entry"]: outcome_key(r) for r in run_cpython(
        [tmp_path], [(e, "normal") for e in entries])}
    report = api.check([str(pkg)], modes=("normal",))
    static = {e: outcome_key(result_dict(report.result(e, "normal"))) for e in entries}
    assert static == real == {e: ("error", "AttributeError", "ypkg.types", "BoolType")
                              for e in entries}
