"""Property: whatever bytes a module holds, `check` neither raises nor hangs, and the other
modules of the package keep the results they get alone."""
from __future__ import annotations

import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import importsafe.api as api

ROOT = Path(__file__).resolve().parents[1]
SEEDS = [p.read_bytes() for p in sorted((ROOT / "tests" / "cases").rglob("*.py"))[:40]] + \
    [(ROOT / "src" / "importsafe" / "static" / "problems.py").read_bytes()]
OTHERS = {"fz/__init__.py": b"from fz import a\n", "fz/a.py": b"from fz import b\nA = 1\n",
          "fz/b.py": b"from fz.a import A\n"}
BOUND = 20.0  # seconds for one check of this small package, on a loaded machine


@st.composite
def mutated(draw):
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["insert", "delete", "replace"]))
        chunk = draw(st.binary(min_size=1, max_size=8) | st.sampled_from(
            [b"\t", b"(", b"\n    ", b"import ", b"from . import x\n", b"\x00", b"\xff\xfe",
             b"# coding: utf-16\n", b"lazy import os\n", b"type X = int\n", b"\\\n"]))
        if kind == "insert":
            data[at:at] = chunk
        elif kind == "delete":
            del data[at:at + len(chunk)]
        else:
            data[at:at + len(chunk)] = chunk
    return bytes(data)


def _outcomes(report, names):
    return {(r.entry, r.mode): (r.outcome, r.error and r.error.exception)
            for r in report.results if r.entry in names}


def _check(tmp: Path, source: bytes, cache: bool) -> None:
    pkg = tmp / "fz"
    for rel, text in OTHERS.items():
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).write_bytes(text)
    (pkg / "victim.py").write_bytes(source)
    started = time.monotonic()
    report = api.check([str(pkg)], jobs=1, cache_dir=str(tmp / "cache") if cache else None)
    assert time.monotonic() - started < BOUND
    assert {r.entry for r in report.results} >= {"fz", "fz.a", "fz.b", "fz.victim"}
    return report


_ALONE: dict = {}


@settings(max_examples=20, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(source=st.one_of(st.binary(max_size=300), mutated()), cache=st.booleans())
def test_check_survives_any_module(tmp_path_factory, source, cache):
    tmp = tmp_path_factory.mktemp("fuzz")
    names = {"fz.a", "fz.b"}
    if not _ALONE:
        _ALONE.update(_outcomes(api.check([str(_write_others(tmp_path_factory))], jobs=1), names))
    report = _check(tmp, source, cache)
    want = _ALONE
    # the victim is imported by nobody: a's and b's results cannot depend on it
    assert _outcomes(report, names) == want


def _write_others(factory) -> Path:
    tmp = factory.mktemp("alone")
    for rel, text in OTHERS.items():
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).write_bytes(text)
    return tmp / "fz"
