"""`--format html`: the self-contained page (matrix, failures, cycle pictures), pure and in a
headless browser."""
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

import importsafe
from importsafe.model import ErrorInfo, Frame, Report, Result
from importsafe.report import html as html_report

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "compiler_pkg"
CHROMIUM = "/usr/bin/chromium"
VOID = {"meta", "br", "hr", "img", "input", "link", "wbr"}
FAILING = {("compiler_pkg.backend_api", "bare"), ("compiler_pkg.verifier", "bare"),
           ("compiler_pkg.jit", "bare"), ("compiler_pkg.optimizer", "bare")}


class Tree(HTMLParser):
    """Checks that every tag we emit is closed in order; collects the matrix and the SVGs."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.rows: list[dict] = []  # matrix body rows: {"entry": str, "cells": [attrs]}
        self.svgs: list[dict] = []  # {"texts": [...], "paths": [class, ...]}
        self._in = {"tbody": False, "th": False, "text": False}
        self._matrix = False
        self._texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "table" and a.get("id") == "matrix":
            self._matrix = True
        if self._matrix and tag == "tbody":
            self._in["tbody"] = True
        if self._in["tbody"] and tag == "tr":
            self.rows.append({"entry": "", "cells": []})
        if self._in["tbody"] and tag == "th":
            self._in["th"] = True
        if self._in["tbody"] and tag == "td":
            self.rows[-1]["cells"].append(a)
        if self._in["tbody"] and tag == "a" and self.rows and self.rows[-1]["cells"]:
            self.rows[-1]["cells"][-1]["href"] = a.get("href")
        if tag == "svg":
            self.svgs.append({"texts": [], "paths": [], "titles": []})
        if tag == "path" and self.svgs and "class" in a:
            self.svgs[-1]["paths"].append(a["class"])
        if tag == "text":
            self._in["text"] = True

    def handle_startendtag(self, tag, attrs):  # <path .../> inside svg
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()
        if tag == "tbody" and self._in["tbody"]:
            self._in["tbody"] = False
            self._matrix = False
        if tag == "th":
            self._in["th"] = False
        if tag == "text":
            self._in["text"] = False

    def handle_data(self, data):
        if self._in["th"] and self.rows:
            self.rows[-1]["entry"] += data
        if self._in["text"] and self.svgs:
            self.svgs[-1]["texts"].append(data)


def parse(page: str) -> Tree:
    tree = Tree()
    tree.feed(page)
    tree.close()
    assert not tree.errors, tree.errors
    assert tree.stack == [], tree.stack
    return tree


@pytest.fixture(scope="module")
def example_report():
    return importsafe.check([str(EXAMPLE)])


def test_html_example_matrix_failures_and_cycles(example_report):
    page = html_report.render(example_report, str(ROOT))
    assert page.startswith("<!DOCTYPE html>")
    # self-contained: no external scripts, styles, images or fonts
    assert not re.search(r"""(src|href)=["'](https?:|//)""", page)
    assert "<link" not in page
    tree = parse(page)

    entries = list(dict.fromkeys(r.entry for r in example_report.results))
    assert [row["entry"] for row in tree.rows] == entries
    failing = set()
    for row in tree.rows:
        assert [c["data-mode"] for c in row["cells"]] == ["normal", "bare"]
        for cell in row["cells"]:
            if cell["data-outcome"] != "ok":
                failing.add((row["entry"], cell["data-mode"]))
                assert "error" in cell["class"].split()
                anchor = cell["href"]
                assert anchor.startswith("#") and f'id="{anchor[1:]}"' in page
            else:
                assert "ok" in cell["class"].split() and "href" not in cell
    assert failing == FAILING

    # the failure details: message, chain, where the name is bound
    assert "cannot import name &#x27;Spec&#x27; from partially initialized module" in page
    assert "examples/compiler_pkg/program/_program.py:8" in page
    assert "examples/compiler_pkg/backend_api.py:17" in page  # where Spec is bound

    # one picture per cycle, modules as nodes, the failing edge highlighted
    assert page.count("<svg") == 2 == len(tree.svgs)
    by_first = {svg["texts"][-3]: svg for svg in tree.svgs}  # node labels come last
    api = by_first["backend_api"]
    assert {"backend_api", "program", "program._program"} <= set(api["texts"])
    assert api["paths"].count("edge") == 2 and api["paths"].count("edge failing") == 1
    assert any("needs 'Spec' from partial backend_api" in t for t in api["texts"])
    ver = by_first["verifier"]
    assert {"verifier", "capture", "capture._capture"} <= set(ver["texts"])
    assert "backend_api -&gt; program -&gt; program._program -&gt; backend_api" in page


def test_html_escapes_and_other_outcomes():
    chain = (Frame("p.<a>", "/x/a.py", 3), Frame("p.b", "/x/b.py", 4))
    bad = Result("p.<a>", "normal", "error",
                 ErrorInfo("ImportError", "p.<a>", "X&Y", "no <b>'X&Y'</b>", chain, None))
    solo = Result("p.s", "normal", "error",
                  ErrorInfo("ImportError", "p.s", "Z", "m", (Frame("p.s", "/x/s.py", 1),)))
    others = (Result("p.t", "bare", "timeout", reason="took > 5s"),
              Result("p.u", "normal", "unknown", reason="dynamic <import>"),
              Result("p.c", "normal", "crash", reason="signal 11"),
              Result("p.w", "bare", "error", ErrorInfo("NameError", None, "n", "m", chain[:1]),
                     waived="suppressed"))
    report = Report((bad, solo, *others))
    page = html_report.render(report, "/x")
    tree = parse(page)
    assert "<b>'X&Y'" not in page and "no &lt;b&gt;&#x27;X&amp;Y&#x27;&lt;/b&gt;" in page
    assert "p.&lt;a&gt;" in page and "&lt;import&gt;" in page
    classes = {row["entry"]: [c["class"].split()[1] for c in row["cells"]] for row in tree.rows}
    assert classes == {"p.<a>": ["error", "missing"], "p.s": ["error", "missing"],
                       "p.t": ["missing", "timeout"], "p.u": ["unknown", "missing"],
                       "p.c": ["crash", "missing"], "p.w": ["missing", "waived"]}
    assert len(tree.svgs) == 2  # p.<a> -> p.b -> p.<a>, and p.s importing itself
    assert all(svg["paths"][-1] == "edge failing" for svg in tree.svgs)
    assert "importsafe report: FAILED" in page


def test_cli_format_html():
    from click.testing import CliRunner

    from importsafe.cli import cli
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        proc = CliRunner().invoke(cli, ["check", str(EXAMPLE), "--format", "html"])
    finally:
        os.chdir(old)
    assert proc.exit_code == 1, proc.output
    assert proc.output.startswith("<!DOCTYPE html>") and proc.output.count("<svg") == 2


# ---- in a real browser ---------------------------------------------------------------------

@pytest.fixture(scope="session")
def chromium():
    if not os.path.exists(CHROMIUM):
        if os.geteuid() != 0 or shutil.which("apt-get") is None:
            pytest.skip(f"{CHROMIUM} missing and cannot install it (needs root and apt-get)")
        try:
            proc = subprocess.run(
                "apt-get update -qq && apt-get install -y -qq chromium", shell=True,
                capture_output=True, text=True, timeout=600,
                env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        except subprocess.TimeoutExpired:
            pytest.skip("installing chromium with apt-get took over 600 s")
        if proc.returncode != 0 or not os.path.exists(CHROMIUM):
            pytest.skip(f"apt-get install chromium failed: {proc.stderr.strip()[-300:]}")
    return CHROMIUM


def _chromium(binary: str, tmp: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--disable-dev-shm-usage", f"--user-data-dir={tmp / 'profile'}",
           *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def test_html_renders_in_chromium(chromium, example_report, tmp_path):
    page = tmp_path / "report.html"
    page.write_text(html_report.render(example_report, str(ROOT)), encoding="utf-8")
    url = page.resolve().as_uri()

    dom = _chromium(chromium, tmp_path, "--dump-dom", url)
    assert dom.returncode == 0, dom.stderr[-2000:]
    tree = parse(dom.stdout)
    assert 'id="matrix"' in dom.stdout
    assert len(tree.rows) == len({r.entry for r in example_report.results})
    assert len(tree.svgs) == 2
    assert dom.stdout.count('class="edge failing"') == 2

    shot = tmp_path / "report.png"
    proc = _chromium(chromium, tmp_path, f"--screenshot={shot}", "--window-size=1200,1600",
                     url)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert shot.exists() and shot.stat().st_size > 10_000
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1200, 1600)
