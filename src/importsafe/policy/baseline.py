"""A baseline: the failures a project accepts today, so that only new ones fail the run.

The file is JSON: `{"importsafe-baseline": 1, "failures": [{"entry", "mode", "exception",
"module", "name", "fingerprint"}, ...]}`. The fingerprint hashes (entry, mode, exception,
module, name, the modules of the chain): no line numbers, so code inserted above an import
keeps its failure baselined, while a failure that reaches the site by another chain is new.
"""
from __future__ import annotations

import json
import os

from ..config.settings import ConfigError
from ..model import Report, Result

VERSION = 1
KEY = "importsafe-baseline"


def fingerprint(r: Result) -> str:
    import hashlib  # here, not at module level: loading OpenSSL slows every start
    e = r.error
    parts = [r.entry, r.mode, e.exception if e else r.outcome, e.module if e else None,
             e.name if e else None, [f.module for f in e.chain] if e else []]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:32]


def entries(report: Report) -> list[dict]:
    """The failures to record: failing results not suppressed or ignored (baselined ones
    included), sorted."""
    out = []
    for r in report.results:
        if r.outcome in ("error", "timeout", "crash") and r.waived in (None, "baselined"):
            e = r.error
            out.append({"entry": r.entry, "mode": r.mode,
                        "exception": e.exception if e else r.outcome,
                        "module": e.module if e else None, "name": e.name if e else None,
                        "fingerprint": fingerprint(r)})
    return sorted(out, key=lambda d: (d["entry"], d["mode"], d["fingerprint"]))


def dumps(report: Report) -> str:
    return json.dumps({KEY: VERSION, "failures": entries(report)}, indent=2) + "\n"


def loads(text: str, where: str = "baseline") -> frozenset[str]:
    """The fingerprints of a baseline document."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise ConfigError(f"{where}: not a baseline file ({exc})") from None
    if not isinstance(doc, dict) or doc.get(KEY) != VERSION or not isinstance(
            doc.get("failures"), list):
        raise ConfigError(f"{where}: not an importsafe baseline (version {VERSION}); "
                          f"write one with `importsafe check --write-baseline FILE`")
    try:
        return frozenset(str(f["fingerprint"]) for f in doc["failures"])
    except (TypeError, KeyError):
        raise ConfigError(f"{where}: a failure without a fingerprint") from None


def load(path: str) -> frozenset[str]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read baseline {path}: {getattr(exc, 'strerror', exc)}"
                          ) from None
    return loads(text, path)


def write(path: str, report: Report) -> int:
    """Write the baseline of `report` (atomically); returns the number of failures."""
    text = dumps(report)
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise ConfigError(f"cannot write baseline {path}: {exc.strerror}") from None
    return len(json.loads(text)["failures"])
