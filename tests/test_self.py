"""importsafe checks itself: every module imports first, in every mode, statically and for real."""
import re
from pathlib import Path

import importsafe

SRC = Path(__file__).resolve().parents[1] / "src" / "importsafe"


# they load their sibling files by path (they run in the user's interpreter, where importsafe
# is not importable), which the static analysis does not replay: `run` checks them below
BY_PATH = {"importsafe.dynamic.lazyemu", "importsafe.dynamic.lazyrewrite"}


def test_importsafe_is_import_order_safe_statically():
    static = importsafe.check([str(SRC)])
    assert [(r.entry, r.mode) for r in static.results if r.outcome != "ok"
            and not (r.entry in BY_PATH and r.outcome == "unknown"
                     and "exec_module()" in r.reason)] == []
    assert len(static.results) > 60


def test_importsafe_is_import_order_safe_for_real():
    real = importsafe.run([str(SRC)])
    assert [(r.entry, r.mode, r.outcome) for r in real.results if r.outcome != "ok"] == []
    assert len(real.results) == len(importsafe.check([str(SRC)]).results) > 60


# the project's development log belongs in commit messages and benchmark results, not in what
# users and contributors read
WORK_LOG = re.compile(r"\bsessions? \d|\bissue #?\d+|\bwas tried\b|\bre-?measur|\brerun\b"
                      r"|\bsteering\b|\btask tracker\b|\b20\d\d-\d\d-\d\d\b", re.I)


def test_no_work_history_in_readme_docs_or_source():
    root = SRC.parents[1]
    files = [root / "README.md", *sorted((root / "docs").rglob("*.md")), *sorted(SRC.rglob("*.py"))]
    hits = [f"{path.relative_to(root)}:{n}: {line.strip()}"
            for path in files
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if WORK_LOG.search(line)]
    assert hits == []
