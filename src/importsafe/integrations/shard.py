"""Split the (entry, mode) matrix across CI jobs, and merge their JSON reports (pure).

`--shard K/N` keeps the K-th of N contiguous slices of the matrix in its fixed order
(contiguous, so each job's memo sees related modules); `merge` puts the results of all shards
back in that order and recomputes the per-site diagnostics, so the merged document equals the
unsharded one.
"""
from __future__ import annotations

from typing import Sequence, TypeVar

from ..policy.diagnose import diagnose
from ..model import Diagnostic, ErrorInfo, Frame, Report, Result

T = TypeVar("T")


class ShardError(ValueError):
    """A --shard value that is not K/N with 1 <= K <= N."""


def parse_shard(text: str) -> tuple[int, int]:
    try:
        k, n = (int(p) for p in text.split("/"))
    except ValueError:
        raise ShardError(f"--shard takes K/N (like 2/4), not {text!r}") from None
    if not 1 <= k <= n:
        raise ShardError(f"--shard {text}: K must be between 1 and N")
    return k, n


def take_shard(items: Sequence[T], shard: tuple[int, int] | None) -> list[T]:
    if shard is None:
        return list(items)
    k, n = shard
    size = len(items)
    return list(items[(k - 1) * size // n: k * size // n])


def result_from_dict(d: dict) -> Result:
    error = None
    if "error" in d:
        e = d["error"]
        defined = e.get("defined_at")
        error = ErrorInfo(e["exception"], e["module"], e["name"], e["message"],
                          tuple(Frame(f["module"], f["file"], f["line"]) for f in e["chain"]),
                          (defined["file"], defined["line"]) if defined else None)
    waived = next((k for k in ("suppressed", "baselined", "ignored") if d.get(k)), None)
    extra = {"waived": waived} if waived and "waived" in Result.__dataclass_fields__ else {}
    return Result(d["entry"], d["mode"], d["outcome"], error, d.get("reason"), **extra)


def merge(docs: Sequence[dict]) -> Report:
    """The report the unsharded run would have given, from the JSON of every shard."""
    if not docs:
        raise ShardError("merge needs at least one report")
    results: dict[tuple[str, str], Result] = {}
    modes: list[str] = []
    problems: dict[tuple, Diagnostic] = {}
    for doc in docs:
        for d in doc["results"]:
            r = result_from_dict(d)
            results[(r.entry, r.mode)] = r
            if r.mode not in modes:
                modes.append(r.mode)
        for d in doc["diagnostics"]:
            if d["code"] < "IS100" and d["code"] != "IS004":  # input problems: same in every shard
                diag = Diagnostic(d["code"], d["name"], d["severity"], d["file"], d["line"],
                                  d["message"])
                problems[(diag.code, diag.file, diag.line, diag.message)] = diag
    ordered = tuple(sorted(results.values(), key=lambda r: (r.entry, modes.index(r.mode))))
    counted = [r for r in ordered if getattr(r, "waived", None) is None]
    diagnostics = tuple(sorted((*problems.values(), *(
        d for d in diagnose(counted, {}, []) if d.code >= "IS004")),
        key=lambda d: (d.file, d.line, d.code, d.message)))
    return Report(ordered, diagnostics, docs[0].get("source", "static"))
