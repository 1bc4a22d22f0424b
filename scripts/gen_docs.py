#!/usr/bin/env python3
"""Write the generated docs pages (rule pages, rule index, configuration reference) from the
code's own tables. The pages are committed, because SARIF's helpUri links docs/rules/CODE.md in
the repository; tests/test_docs.py fails when they differ from what this writes.

    python3 scripts/gen_docs.py [--check]
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import click  # noqa: E402

from importsafe.cli import cli  # noqa: E402
from importsafe.report import rules as render  # noqa: E402
from importsafe.rules import RULES  # noqa: E402


NAV_START = "  # rules: written by scripts/gen_docs.py"
NAV_END = "  # end of rules\n"
OPTIONS_START = "<!-- options: written by scripts/gen_docs.py"
OPTIONS_END = "<!-- end of options -->"


def pages() -> dict[Path, str]:
    """Every generated file: its path below the repository root and its text."""
    out = {Path("docs/rules/index.md"): render.rules_index(),
           Path("docs/configuration.md"): render.config_reference(),
           Path("mkdocs.yml"): mkdocs_yml((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))}
    out.update({Path(f"docs/rules/{code}.md"): render.rule_page(rule)
                for code, rule in RULES.items()})
    for name in cli.commands:
        rel = Path(f"docs/commands/{name}.md")
        out[rel] = with_options((ROOT / rel).read_text(encoding="utf-8"), name)
    return out


def with_options(text: str, name: str) -> str:
    """A command's page with its options block: what `importsafe NAME --help` prints."""
    start = text.index(OPTIONS_START)
    first = text.index("\n", start) + 1
    end = text.index(OPTIONS_END, first)
    command = cli.commands[name]
    group = click.Context(cli, info_name="importsafe", terminal_width=88, max_content_width=88,
                          **cli.context_settings)
    ctx = click.Context(command, info_name=name, parent=group)
    return text[:first] + f"```text\n{command.get_help(ctx)}\n```\n" + text[end:]


def mkdocs_yml(text: str) -> str:
    """mkdocs.yml with its Rules section of the nav listing every rule page."""
    start = text.index(NAV_START)
    first = text.index("\n", start) + 1
    end = text.index(NAV_END, first)
    nav = "  - Rules:\n      - rules/index.md\n" + "".join(
        f"      - {code} {rule.name}: rules/{code}.md\n" for code, rule in RULES.items())
    return text[:first] + nav + text[end:]


def main(argv: list[str]) -> int:
    stale = []
    for rel, text in pages().items():
        path = ROOT / rel
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(rel)
        if "--check" not in argv:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    verb = "out of date" if "--check" in argv else "wrote"
    for rel in stale:
        print(f"{verb}: {rel}")
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
