"""importsafe checks itself: every module imports first, in every mode, statically and for real."""
from pathlib import Path

import importsafe

SRC = Path(__file__).resolve().parents[1] / "src" / "importsafe"


def test_importsafe_is_import_order_safe():
    static = importsafe.check([str(SRC)])
    assert [(r.entry, r.mode) for r in static.results if r.outcome != "ok"] == []
    real = importsafe.run([str(SRC)])
    assert [(r.entry, r.mode, r.outcome) for r in real.results if r.outcome != "ok"] == []
    assert len(real.results) == len(static.results) > 60
