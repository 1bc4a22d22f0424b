"""The docs site: it builds with `mkdocs build --strict`, its generated pages are what the
code's tables give, every rule has a page and every configuration key a row, and
`importsafe rule` prints the pages' text."""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from importsafe.cli import cli
from importsafe.config.keys import KEYS
from importsafe.report import rules as render
from importsafe.rules import RULES

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _gen_docs():
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_pages_are_up_to_date():
    stale = [str(rel) for rel, text in _gen_docs().pages().items()
             if not (ROOT / rel).is_file() or (ROOT / rel).read_text(encoding="utf-8") != text]
    assert stale == [], f"run `python3 scripts/gen_docs.py`: {stale} differ"


def test_every_rule_has_its_page_with_ruffs_headings():
    assert {p.stem for p in (DOCS / "rules").glob("IS*.md")} == set(RULES)
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for code, rule in RULES.items():
        page = (DOCS / "rules" / f"{code}.md").read_text(encoding="utf-8")
        assert page.startswith(f"# {code} {rule.name}\n"), code
        for heading in ("What it does", "Why is this bad", "Example", "How to fix"):
            assert f"\n## {heading}\n" in page, (code, heading)
        assert rule.what and rule.why and rule.example and rule.fix, code
        assert f"rules/{code}.md" in nav, code


def test_every_config_key_has_a_reference_row():
    reference = (DOCS / "configuration.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z-]+)` \|", reference, re.M)
    assert rows == [k.name for k in KEYS]
    for key in KEYS:
        row = next(line for line in reference.splitlines() if line.startswith(f"| `{key.name}` |"))
        assert key.type in row and render._cell(key.default) in row, key.name


def test_every_command_has_a_page_with_its_options():
    pages = {p.stem for p in (DOCS / "commands").glob("*.md")} - {"index"}
    assert pages == set(cli.commands)
    index = (DOCS / "commands" / "index.md").read_text(encoding="utf-8")
    for name, command in cli.commands.items():
        page = (DOCS / "commands" / f"{name}.md").read_text(encoding="utf-8")
        assert f"({name}.md)" in index, name
        for param in command.params:
            for opt in param.opts:
                if opt.startswith("-"):
                    assert opt in page, (name, opt)


def test_rule_prints_the_page():
    runner = CliRunner()
    for code, rule in RULES.items():
        proc = runner.invoke(cli, ["rule", code.lower()])
        assert proc.exit_code == 0, proc.output
        assert proc.output == (DOCS / "rules" / f"{code}.md").read_text(encoding="utf-8")


def test_rule_lists_the_codes():
    runner = CliRunner()
    for args in (["rule"], ["rule", "--all"]):
        proc = runner.invoke(cli, args)
        assert proc.exit_code == 0
        assert [line.split()[0] for line in proc.output.splitlines()] == list(RULES)
        assert "import-from-partial-module" in proc.output


def test_rule_unknown_code_is_a_usage_error():
    proc = CliRunner().invoke(cli, ["rule", "IS999"])
    assert proc.exit_code == 2
    assert "unknown rule code 'IS999'" in proc.output and "Traceback" not in proc.output
    assert CliRunner().invoke(cli, ["rule", "IS101", "--all"]).exit_code == 2


def test_mkdocs_build_strict(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (pip install -e '.[docs]')")
    pytest.importorskip("material", reason="mkdocs-material is not installed")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                           "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                          capture_output=True, text=True, cwd=tmp_path,
                          env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin",
                               "HOME": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert (tmp_path / "site" / "rules" / "IS101" / "index.html").is_file()


def test_readme_is_short_and_its_test_command_is_what_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m pip install -q -e '.[test]' && python3 -m pytest" in readme
    assert "python3 -m pip install -q -e '.[test]'\npython3 -m pytest\n" in ci
    assert "python3 -m venv .venv" in readme


def _importsafe(tmp_path, *args):
    proc = subprocess.run([sys.executable, "-m", "importsafe", *args], capture_output=True,
                          text=True, cwd=ROOT, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                                                    "COLUMNS": "100", "NO_COLOR": "1"})
    return proc.stdout.replace(f"({ROOT}/", "(.../").strip()


def test_quoted_outputs_are_what_the_commands_print(tmp_path):
    """The example outputs quoted in README and docs are the commands' real output (the
    absolute path at the end of CPython's message shortened to `...`)."""
    def text(rel):
        return (ROOT / rel).read_text(encoding="utf-8")
    cache = ("--cache-dir", str(tmp_path / "cache"))
    check = _importsafe(tmp_path, "check", "examples/compiler_pkg", *cache)
    assert check in text("README.md") and check in text("docs/getting-started.md")
    lazy = _importsafe(tmp_path, "check", "examples/compiler_pkg", "--mode", "normal,bare,lazy",
                       *cache).splitlines()
    start = next(i for i, line in enumerate(lazy) if line.startswith("lazy imports (PEP 810)"))
    assert "\n".join(lazy[start:start + 2]) in text("docs/modes.md")
    explain = _importsafe(tmp_path, "explain", "compiler_pkg.backend_api", "examples/compiler_pkg",
                          "--mode", "bare")
    assert explain in text("docs/commands/explain.md")
    fix = _importsafe(tmp_path, "fix", "examples/compiler_pkg").splitlines()
    assert "\n".join(fix[-6:]) in text("docs/commands/fix.md")
