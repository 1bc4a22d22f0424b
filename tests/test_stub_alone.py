"""A stub (`.pyi`) alone, in a directory built for this platform (it holds extension modules),
is no module: the wheel lacks the extension it stands for (matplotlib's `_macosx.pyi`)."""
import subprocess
import sys

from importsafe import api


def _tree(tmp_path, built: bool):
    pkg = tmp_path / "stb"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "_other.pyi").write_text("def value() -> int: ...\n")
    (pkg / "user.py").write_text("from . import _other\n")
    if built:  # never imported: its presence is all that counts
        (pkg / "_fast.cpython-311-x86_64-linux-gnu.so").write_bytes(b"not loaded")
    return pkg


def _real(tmp_path) -> str:
    done = subprocess.run([sys.executable, "-I", "-c",
                           "import sys; sys.path.insert(0, '.'); import stb.user"], cwd=tmp_path,
                          capture_output=True, text=True)
    return "ok" if done.returncode == 0 else done.stderr.strip().splitlines()[-1]


def test_a_stub_alone_beside_extension_modules_is_missing(tmp_path):
    pkg = _tree(tmp_path, built=True)
    assert _real(tmp_path).startswith("ImportError: cannot import name '_other'")
    result = api.check([str(pkg)], modes=("normal",)).result("stb.user", "normal")
    assert result.outcome == "error" and result.error.exception == "ImportError"
    assert result.error.name == "_other"


def test_a_stub_alone_in_a_source_tree_stands_for_an_unbuilt_extension(tmp_path):
    pkg = _tree(tmp_path, built=False)
    # CPython fails too, but a source tree is checked as if built: the documented assumption
    assert _real(tmp_path).startswith("ImportError")
    assert api.check([str(pkg)], modes=("normal",)).result("stb.user", "normal").outcome == "ok"
