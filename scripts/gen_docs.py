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

from importsafe.report import rules as render  # noqa: E402
from importsafe.rules import RULES  # noqa: E402


def pages() -> dict[Path, str]:
    """Every generated page: its path below the repository root and its text."""
    out = {Path("docs/rules/index.md"): render.rules_index(),
           Path("docs/configuration.md"): render.config_reference()}
    out.update({Path(f"docs/rules/{code}.md"): render.rule_page(rule)
                for code, rule in RULES.items()})
    return out


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
