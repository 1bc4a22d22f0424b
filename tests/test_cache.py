"""Facts cached by content: same report warm and cold, edits invalidate, corruption is a miss."""
from pathlib import Path

import importsafe.api as api
from importsafe.report.json import to_dict
from test_cli import EXAMPLE, run_cli, write


def test_warm_report_equals_cold_and_edits_invalidate(tmp_path):
    cache = tmp_path / "cache"
    cold = to_dict(api.check([str(EXAMPLE)], cache_dir=str(cache)))
    entries = list(cache.rglob("*.pickle"))
    assert entries, "facts were cached"
    warm = to_dict(api.check([str(EXAMPLE)], cache_dir=str(cache)))
    assert warm == cold == to_dict(api.check([str(EXAMPLE)]))
    for entry in entries:  # corrupt every entry: each is then a miss
        entry.write_bytes(b"not a pickle")
    assert to_dict(api.check([str(EXAMPLE)], cache_dir=str(cache))) == cold


def test_an_edited_file_is_parsed_again(tmp_path):
    pkg = write(tmp_path, {"ed/__init__.py": "", "ed/a.py": "from . import b\nA = 1\n",
                           "ed/b.py": "from .a import A\n"}) / "ed"
    cache = str(tmp_path / "cache")
    assert api.check([str(pkg)], cache_dir=cache).result("ed.a", "bare").outcome == "error"
    (pkg / "b.py").write_text("def f():\n    from .a import A\n    return A\n")
    assert api.check([str(pkg)], cache_dir=cache).result("ed.a", "bare").outcome == "ok"


def test_cli_cache_flags(tmp_path):
    proc = run_cli("check", EXAMPLE, "--cache-dir", tmp_path / "c", "--format", "json")
    assert proc.returncode == 1 and any(Path(tmp_path / "c").rglob("*.pickle"))
    proc = run_cli("check", EXAMPLE, "--no-cache", "--cache-dir", tmp_path / "d")
    assert proc.returncode == 1 and not (tmp_path / "d").exists()
