"""SARIF that GitHub code scanning accepts: the SARIF 2.1.0 schema, and GitHub's documented
upload requirements (docs.github.com, "SARIF support for code scanning": required
properties, and the limits over which a file is rejected), on a package with unknowns."""
import json
from pathlib import Path
from urllib.parse import urlparse

import pytest

from test_formats import ROOT, invoke, validate_sarif, write

from importsafe.model import Diagnostic, Report, Result
from importsafe.report import sarif

LIMITS = {"runs": 20, "results": 25_000, "rules": 25_000, "locations": 10,
          "related": 1_000, "flow": 10_000, "tags": 20, "description": 1_024, "name": 255}


def github_problems(doc: dict) -> list[str]:
    """What code scanning would reject or fail to show in a SARIF log, per GitHub's docs."""
    out = []
    if doc.get("version") != "2.1.0" or not doc.get("$schema"):
        out.append("version 2.1.0 and $schema are required")
    runs = doc.get("runs") or []
    if not 1 <= len(runs) <= LIMITS["runs"]:
        out.append(f"{len(runs)} runs")
    for run in runs:
        driver = run.get("tool", {}).get("driver", {})
        if not driver.get("name"):
            out.append("tool.driver.name is required")
        rules = driver.get("rules") or []
        ids = {r.get("id") for r in rules}
        if len(rules) > LIMITS["rules"]:
            out.append("too many rules")
        for r in rules:
            for key in ("shortDescription", "fullDescription", "help"):
                text = r.get(key, {}).get("text", "")
                if not text or (key != "help" and len(text) > LIMITS["description"]):
                    out.append(f"rule {r.get('id')}: {key}.text missing or too long")
            if not r.get("id") or len(r.get("name", "")) > LIMITS["name"]:
                out.append(f"rule {r.get('id')}: id or name")
            uri = urlparse(r.get("helpUri", ""))
            if uri.scheme not in ("http", "https") or not uri.netloc:
                out.append(f"rule {r.get('id')}: helpUri not absolute")
            if len(r.get("properties", {}).get("tags", [])) > LIMITS["tags"]:
                out.append(f"rule {r.get('id')}: too many tags")
        results = run.get("results")
        if results is None or len(results) > LIMITS["results"]:
            out.append("results missing or too many")
        for i, res in enumerate(results or ()):
            where = f"result {i} ({res.get('ruleId')})"
            if res.get("ruleId") not in ids:
                out.append(f"{where}: ruleId is not a rule")
            if not res.get("message", {}).get("text"):
                out.append(f"{where}: message.text is required")
            if res.get("level", "warning") not in ("none", "note", "warning", "error"):
                out.append(f"{where}: level")
            locations = res.get("locations") or []
            if not 1 <= len(locations) <= LIMITS["locations"]:
                out.append(f"{where}: {len(locations)} locations (1 to 10 are required)")
            related = res.get("relatedLocations", [])
            if len(related) > LIMITS["related"]:
                out.append(f"{where}: too many related locations")
            flows = [loc for flow in res.get("codeFlows", ()) for thread in flow["threadFlows"]
                     for loc in thread["locations"]]
            if len(flows) > LIMITS["flow"]:
                out.append(f"{where}: too many thread flow locations")
            for loc in [*locations, *related, *(f["location"] for f in flows)]:
                out.extend(f"{where}: {p}" for p in _physical_problems(loc))
            prints = res.get("partialFingerprints")
            if not prints or not all(isinstance(v, str) and v for v in prints.values()):
                out.append(f"{where}: partialFingerprints are required")
    return out


def _physical_problems(loc: dict) -> list[str]:
    phys = loc.get("physicalLocation") or {}
    uri = phys.get("artifactLocation", {}).get("uri", "")
    region = phys.get("region") or {}
    out = []
    if not uri:
        out.append("artifactLocation.uri is required")
    elif "://" in uri and not uri.startswith("file:///"):
        out.append(f"uri {uri}")
    start, end = region.get("startLine", 0), region.get("endLine", 0)
    if start < 1 or end < start or region.get("startColumn", 0) < 1 or \
            region.get("endColumn", 0) < 1:
        out.append(f"region {region}: startLine, startColumn, endLine, endColumn required")
    return out


# undecidable three ways (a module __getattr__, globals() writes, __all__ not a literal), a
# cycle, a file that does not parse, an unused suppression; files below the work directory
UNKNOWNS = {
    "pkg/__init__.py": "import os\n\n\ndef __getattr__(name):\n    if name.startswith(os.sep):\n"
                       "        raise AttributeError(name)\n    return 1\n",
    "pkg/uses_getattr.py": "from pkg import Missing\n",
    # uses_dyn reads `made` while dyn still runs (a cycle): undecidable
    "pkg/dyn.py": "import os\n\nglobals()[os.sep] = 1\nfrom pkg import uses_dyn\n",
    "pkg/uses_dyn.py": "from pkg import dyn\nX = dyn.made\n",
    "pkg/star/__init__.py": "import os\n__all__ = list(os.environ)\n",
    "pkg/uses_star.py": "from pkg.star import *\n",
    "pkg/a.py": "from .b import B\nA = 1\n",
    "pkg/b.py": "from .a import A  # importsafe: ignore[IS105]\nB = 2\n",
    "pkg/broken.py": "def f(:\n",
}


def _sarif(tmp_path: Path, *args) -> dict:
    proc = invoke("check", "pkg", "--format", "sarif", *args, cwd=tmp_path)
    assert proc.exit_code in (0, 1), proc.output
    return json.loads(proc.stdout)


def test_every_result_is_located_and_github_accepts_the_file(tmp_path):
    write(tmp_path, UNKNOWNS)
    doc = _sarif(tmp_path)
    validate_sarif(doc)
    assert github_problems(doc) == []
    results = doc["runs"][0]["results"]
    at = {}
    for res in results:
        loc = res["locations"][0]["physicalLocation"]
        at.setdefault(res["ruleId"], set()).add(
            (loc["artifactLocation"]["uri"], loc["region"]["startLine"]))
    # each unknown at the line that made it undecidable
    assert ("pkg/__init__.py", 4) in at["IS004"]  # def __getattr__
    assert ("pkg/dyn.py", 3) in at["IS004"]  # globals()[...] = ...
    assert ("pkg/star/__init__.py", 2) in at["IS004"]  # __all__ = ...
    assert ("pkg/b.py", 1) in at["IS101"] and ("pkg/broken.py", 1) in at["IS001"]
    assert ("pkg/b.py", 1) in at["IS302"]  # ignore[IS105] on a line failing with IS101
    unknown = next(r for r in results if r["ruleId"] == "IS004")
    assert "cannot be decided" in unknown["message"]["text"]
    assert "breaks first import" not in unknown["message"]["text"]
    region = next(r["locations"][0]["physicalLocation"]["region"] for r in results
                  if r["ruleId"] == "IS101" and r["locations"][0]["physicalLocation"][
                      "artifactLocation"]["uri"] == "pkg/b.py")
    assert region == {"startLine": 1, "startColumn": 1, "endLine": 1,
                      "endColumn": len("from .a import A  # importsafe: ignore[IS105]") + 1}


def test_the_github_check_is_not_vacuous(tmp_path):
    write(tmp_path, UNKNOWNS)
    good = _sarif(tmp_path)
    assert github_problems(good) == []
    for damage, expected in [
        (lambda r: r.pop("locations"), "0 locations"),
        (lambda r: r.update(locations=r["locations"] * 11), "11 locations"),
        (lambda r: r["message"].update(text=""), "message.text"),
        (lambda r: r.pop("partialFingerprints"), "partialFingerprints"),
        (lambda r: r["locations"][0]["physicalLocation"]["region"].pop("startColumn"),
         "region"),
        (lambda r: r.update(relatedLocations=r["locations"] * 1001), "related"),
    ]:
        doc = json.loads(json.dumps(good))
        damage(doc["runs"][0]["results"][0])
        assert any(expected in p for p in github_problems(doc)), expected


def test_fingerprints_survive_code_moving_down(tmp_path):
    write(tmp_path, UNKNOWNS)
    before = _sarif(tmp_path, "--no-cache")["runs"][0]["results"]
    for rel, text in UNKNOWNS.items():
        if rel != "pkg/broken.py":  # every other line moves down three lines
            (tmp_path / rel).write_text("'''Doc.'''\n\n\n" + text)
    after = _sarif(tmp_path, "--no-cache")["runs"][0]["results"]

    def prints(results):
        return sorted(r["partialFingerprints"]["primaryLocationLineHash"] for r in results)

    def lines(results):
        return sorted(r["locations"][0]["physicalLocation"]["region"]["startLine"]
                      for r in results)
    assert lines(before) != lines(after) and len(before) == len(after)
    assert prints(before) == prints(after)
    assert len(set(prints(after))) == len(after)  # and no two results share one


def test_a_note_without_a_file_is_placed_at_the_configuration_or_the_package(tmp_path):
    write(tmp_path, {"pkg/__init__.py": "", "pyproject.toml": "[tool.importsafe]\n"})
    note = Diagnostic("IS201", "static-dynamic-disagreement", "error", "", 0, "disagree")
    report = Report((Result("pkg", "normal", "ok"),), (note,), roots=(str(tmp_path),))
    at_package = sarif.to_dict(report, str(tmp_path))
    (res,) = at_package["runs"][0]["results"]
    assert res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == \
        "pkg/__init__.py"
    at_config = sarif.to_dict(report, str(tmp_path), str(tmp_path / "pyproject.toml"))
    (res,) = at_config["runs"][0]["results"]
    assert res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == \
        "pyproject.toml"
    for doc in (at_package, at_config):
        validate_sarif(doc)
        assert github_problems(doc) == []


def test_symlinked_files_are_reported_at_their_real_path(tmp_path):
    write(tmp_path, {"real/pkg/__init__.py": "", "real/pkg/a.py": "from .b import B\nA = 1\n",
                     "real/pkg/b.py": "from .a import A\nB = 2\n"})
    (tmp_path / "pkg").symlink_to(tmp_path / "real" / "pkg")
    doc = _sarif(tmp_path)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in doc["runs"][0]["results"]}
    assert uris and all(u.startswith("real/pkg/") for u in uris), uris


@pytest.mark.parametrize("n", [3])
def test_long_chains_are_cut_to_github_limits(n, monkeypatch):
    monkeypatch.setattr(sarif, "MAX_RELATED", n)
    monkeypatch.setattr(sarif, "MAX_FLOW", n)
    report = __import__("importsafe").check([str(ROOT / "examples" / "compiler_pkg")])
    doc = sarif.to_dict(report, str(ROOT))
    for res in doc["runs"][0]["results"]:
        assert len(res.get("relatedLocations", ())) <= n
        for flow in res.get("codeFlows", ()):
            assert len(flow["threadFlows"][0]["locations"]) <= n
