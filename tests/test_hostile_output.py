"""What comes from the analysed tree (paths, source lines, names, `__all__` strings,
messages, children's output) is shown with its control and bidirectional characters escaped,
in every format; a source file in an encoding Python refuses gives no traceback anywhere."""
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from test_formats import invoke

from importsafe.report.source import printable, source_line

ESC, BEL, RLO = "\x1b", "\x07", "\u202e"
RAW = (ESC, BEL, RLO, "\u2066", "\x9b", "\x00")
ROOT_DIR = f"ro{ESC}[2Jot"  # a source root whose name is a terminal command

HOSTILE = {
    "pkg/__init__.py": "",
    # a cycle whose lines carry escape sequences and a right-to-left override in comments
    "pkg/a.py": f"from .b import B  # {ESC}]0;owned{BEL} {RLO}evil\nA = 1\n",
    "pkg/b.py": f"from .a import A  # {ESC}[2J{ESC}[31m red\nB = 2\n",
    # a name from `__all__` that is an escape sequence, missing from the module
    "pkg/star/__init__.py": f"__all__ = ['{ESC}]0;title{BEL}']\n",
    "pkg/uses_star.py": "from pkg.star import *\n",
    # an encoding Python refuses for source, on a chain
    "pkg/wide.py": "# coding: utf-16\nX = 1\n",
    "pkg/uses_wide.py": "from pkg.wide import X\n",
}


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / ROOT_DIR
    for rel, text in HOSTILE.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _clean(text: str, what: str) -> None:
    for ch in RAW:
        assert ch not in text, f"{what} shows {ch!r} raw"
    assert "Traceback" not in text, what


def test_printable_escapes_and_keeps_the_rest():
    assert printable(f"a{ESC}]0;x{BEL}b{RLO}c\td é ü 名") == "a\\x1b]0;x\\x07b\\u202ec\\td é ü 名"
    assert printable("") == "" and printable(None) == ""
    assert printable(printable(ESC)) == printable(ESC)  # escaping twice changes nothing


@pytest.mark.parametrize("name, data", [
    ("wide.py", b"# coding: utf-16\nx = 1\n"),
    ("nocodec.py", b"# coding: no-such-codec\nx = 1\n"),
    ("latin.py", "# coding: latin-1\nx = 'é'\n".encode("latin-1")),
    ("bad.py", b"x = '\xff\xfe'\n"),
])
def test_the_source_reader_never_raises(tmp_path, name, data):
    (tmp_path / name).write_bytes(data)
    assert source_line(str(tmp_path / name), 2) in ("x = 1", "x = 'é'", "")
    assert source_line(str(tmp_path / name), 1)
    assert source_line(str(tmp_path / name), 99) == ""
    assert source_line("/dev/zero", 1) == "" and source_line(str(tmp_path), 1) == ""


def test_special_files_are_not_read(tmp_path):
    import os
    os.mkfifo(tmp_path / "fifo.py")
    assert source_line(str(tmp_path / "fifo.py"), 1) == ""  # and it did not hang


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "junit", "html"])
def test_every_format_escapes_the_tree(tmp_path, fmt):
    _tree(tmp_path)
    proc = invoke("check", ROOT_DIR + "/pkg", "--format", fmt, "--mode", "normal,bare,lazy",
                  cwd=tmp_path)
    assert proc.exit_code == 1, proc.output
    out = proc.stdout
    _clean(out, fmt)
    if fmt == "json":  # JSON keeps the data exactly, escaped by JSON itself
        doc = json.loads(out)
        star = next(r for r in doc["results"] if r["entry"] == "pkg.uses_star")
        assert star["error"]["name"] == f"{ESC}]0;title{BEL}"
        return
    if fmt == "sarif":
        doc = json.loads(out)
        texts = [r["message"]["text"] for r in doc["runs"][0]["results"]]
        assert not any(ch in t for t in texts for ch in RAW)
    if fmt == "junit":
        ET.fromstring(out)
    if fmt in ("text", "github", "junit", "html"):
        assert "\\x1b" in out, fmt  # shown, escaped
    if fmt == "text":
        assert "\\u202e" in out and "wide.py" in out


def test_explain_escapes_and_survives_a_refused_encoding(tmp_path):
    _tree(tmp_path)
    for entry in ("pkg.a", "pkg.uses_wide", "pkg.uses_star"):
        for fmt in ("text", "json"):
            proc = invoke("explain", entry, ROOT_DIR + "/pkg", "--format", fmt, cwd=tmp_path)
            assert proc.exit_code in (0, 1), proc.output
            if fmt == "text":
                _clean(proc.stdout, f"explain {entry}")
            else:
                json.loads(proc.stdout)


def test_run_escapes_what_children_print(tmp_path):
    (tmp_path / "loud").mkdir()
    (tmp_path / "loud" / "__init__.py").write_text(
        f"import sys\nprint('{ESC}]0;owned{BEL}{RLO}x')\nsys.stderr.write('{ESC}[2J')\n"
        "raise ImportError('no')\n")
    proc = invoke("run", "loud", "--show-output", "--mode", "normal", "-j", "1", cwd=tmp_path)
    assert proc.exit_code == 1, proc.output
    _clean(proc.stdout, "run --show-output")
    assert "\\x1b]0;owned\\x07\\u202ex" in proc.stdout
    proc = invoke("run", "loud", "--format", "github", "--mode", "normal", "-j", "1",
                  cwd=tmp_path)
    _clean(proc.stdout, "run --format github")


def test_pytest_failure_message_is_escaped(tmp_path):
    from importsafe.integrations.pytest_plugin import explanation_text
    import importsafe
    root = _tree(tmp_path)
    report = importsafe.check([str(root / "pkg")])
    failing = [r for r in report.results if r.outcome == "error"]
    assert failing
    for r in failing:
        _clean(explanation_text(r, None, str(tmp_path)), r.entry)
