"""Output formats (SARIF, GitHub, JUnit), inline suppressions, baselines, skip/select/ignore."""
import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

import importsafe
import importsafe.rules
from importsafe.policy import baseline, suppress
from importsafe.cli import cli
from importsafe.model import Diagnostic, ErrorInfo, Frame, Report, Result
from importsafe.report import github, junit, sarif

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "compiler_pkg"
SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json")
                    .read_text(encoding="utf-8"))


def write(root: Path, files: dict) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def invoke(*args, cwd: Path):
    """The command line, in this process (much faster than a subprocess per call)."""
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:  # click >= 8.2 keeps stderr apart and has no mix_stderr
        runner = CliRunner()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        proc = runner.invoke(cli, [str(a) for a in args])
    finally:
        os.chdir(old)
    if proc.exception is not None and not isinstance(proc.exception, SystemExit):
        raise proc.exception
    return proc


# a package where `import pkg.a` fails in both modes at b.py:2 (IS101), and nothing else
CYCLE = {"pkg/__init__.py": "",
         "pkg/a.py": "from .b import B\nA = 1\n",
         "pkg/b.py": "B = 2\nfrom .a import A{comment}\n"}


def cycle(tmp_path: Path, comment: str = "") -> Path:
    files = dict(CYCLE, **{"pkg/b.py": CYCLE["pkg/b.py"].format(comment=comment)})
    return write(tmp_path, files)


def validate_sarif(doc: dict) -> None:
    jsonschema.Draft4Validator.check_schema(SCHEMA)
    jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker()).validate(doc)


# --- SARIF ---------------------------------------------------------------------------------

def test_sarif_is_valid_against_the_official_schema_and_carries_the_chain(monkeypatch):
    monkeypatch.chdir(ROOT)
    report = importsafe.check([str(EXAMPLE)])
    doc = json.loads(sarif.render(report, str(ROOT)))
    validate_sarif(doc)
    assert doc["version"] == "2.1.0" and len(doc["runs"]) == 1
    run = doc["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "importsafe" and driver["version"] == importsafe.__version__
    rules = {r["id"]: r for r in driver["rules"]}
    assert rules["IS101"]["name"] == "import-from-partial-module"
    assert rules["IS101"]["defaultConfiguration"]["level"] == "error"
    assert rules["IS004"]["defaultConfiguration"]["level"] == "note"
    assert "docs/rules/IS101.md" in rules["IS101"]["help"]["markdown"]
    assert len(run["results"]) == len(report.diagnostics) == 2
    res = next(r for r in run["results"]
               if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
               == "examples/compiler_pkg/program/_program.py")
    assert res["ruleId"] == "IS101" and res["level"] == "error"
    assert driver["rules"][res["ruleIndex"]]["id"] == "IS101"
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uriBaseId"] == "SRCROOT" and loc["region"]["startLine"] == 8
    related = res["relatedLocations"]
    uris = [r["physicalLocation"]["artifactLocation"]["uri"] for r in related]
    assert uris == ["examples/compiler_pkg/backend_api.py",
                    "examples/compiler_pkg/program/__init__.py",
                    "examples/compiler_pkg/program/_program.py",
                    "examples/compiler_pkg/backend_api.py"]  # the last: where Spec is bound
    assert "compiler_pkg.program" in related[0]["message"]["text"]
    assert related[-1]["message"]["text"] == "'Spec' is bound here"
    flow = res["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [f["location"]["physicalLocation"]["region"]["startLine"] for f in flow] == [
        r["physicalLocation"]["region"]["startLine"] for r in related[:3]]
    assert [f["executionOrder"] for f in flow] == [1, 2, 3]
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"].startswith("file:///")


def test_the_schema_check_is_not_vacuous():
    report = Report((), (Diagnostic("IS101", "import-from-partial-module", "error", "a.py", 1,
                                    "m"),))
    doc = sarif.to_dict(report, "/")
    validate_sarif(doc)
    doc["runs"][0]["results"][0]["level"] = "info"  # not a SARIF level
    with pytest.raises(jsonschema.ValidationError):
        validate_sarif(doc)


def test_sarif_from_the_command_line_with_an_outside_file(tmp_path):
    cycle(tmp_path / "src")
    proc = invoke("check", tmp_path / "src" / "pkg", "--format", "sarif", cwd=ROOT)
    assert proc.exit_code == 1, proc.output
    doc = json.loads(proc.stdout)
    validate_sarif(doc)
    (res,) = doc["runs"][0]["results"]
    artifact = res["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact["uri"].startswith("file:///") and "uriBaseId" not in artifact
    # a.py:1 -> b.py:2, then where A is bound (a.py:2)
    assert [r["physicalLocation"]["region"]["startLine"] for r in res["relatedLocations"]] == [
        1, 2, 2]


def _github_slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading (lower case, punctuation dropped, spaces to
    hyphens)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_sarif_rules_have_a_help_uri_to_their_page():
    """helpUri: the rule's page docs/rules/CODE.md, below `[project.urls] Rules` (read from
    importsafe's installed metadata; the module's fallback is the same URL)."""
    import tomllib
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]
    assert sarif.RULES_URL == urls["Rules"] == sarif.rules_url()
    assert urls["Rules"] == f"{urls['Repository']}/blob/main/docs/rules/"
    doc = sarif.to_dict(Report(()), "/")
    validate_sarif(doc)
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert {r["id"] for r in rules} == set(importsafe.rules.RULES)
    for rule in rules:
        assert rule["helpUri"] == f"{urls['Rules']}{rule['id']}.md", rule
        assert rule["help"]["text"] and rule["fullDescription"]["text"]
    pages = ROOT / "docs" / "rules"
    if pages.is_dir():  # the generated pages, where the docs are built
        assert {p.stem for p in pages.glob("IS*.md")} >= set(importsafe.rules.RULES)
    # a site with `{code}` in its address (an mkdocs site without .md pages)
    assert sarif.help_uri("IS101", "https://x.example/rules/{code}/") == \
        "https://x.example/rules/IS101/"


def _sarif_results(proc) -> dict:
    """(ruleId, file name, line) -> the suppressions of that result (None: not suppressed)."""
    doc = json.loads(proc.stdout)
    validate_sarif(doc)
    out = {}
    for r in doc["runs"][0]["results"]:
        loc = r["locations"][0]["physicalLocation"]
        key = (r["ruleId"], loc["artifactLocation"]["uri"].rsplit("/", 1)[-1],
               loc["region"]["startLine"])
        assert key not in out, key  # one result per site, suppressed or not
        out[key] = r.get("suppressions")
    return out


def test_sarif_exports_waived_failures_as_suppressed_results(tmp_path):
    cycle(tmp_path, "  # importsafe: ignore[IS101]")  # pkg.a fails at b.py:2, suppressed inline
    (tmp_path / "pkg" / "c.py").write_text("from .missing import X\n")  # IS104 at c.py:1
    assert invoke("check", "pkg", "--write-baseline", "base.json", cwd=tmp_path).exit_code == 0
    recorded = json.loads((tmp_path / "base.json").read_text())["failures"]
    assert {(f["entry"], f["mode"]) for f in recorded} == {("pkg.c", "normal"), ("pkg.c", "bare")}

    proc = invoke("check", "pkg", "--baseline", "base.json", "--format", "sarif", cwd=tmp_path)
    assert proc.exit_code == 0, proc.output
    got = _sarif_results(proc)
    assert got == {("IS101", "b.py", 2): [{"kind": "inSource"}],
                   ("IS104", "c.py", 1): [{"kind": "external", "justification": "baseline"}]}
    # a suppressed result keeps its chain
    doc = json.loads(proc.stdout)
    res = next(r for r in doc["runs"][0]["results"] if r["ruleId"] == "IS101")
    assert len(res["relatedLocations"]) == 3 and res["codeFlows"]
    assert res["properties"]["entry"] == "pkg.a"

    # a new failure is an unsuppressed result next to them
    (tmp_path / "pkg" / "d.py").write_text("from .gone import Y\n")
    proc = invoke("check", "pkg", "--baseline", "base.json", "--format", "sarif", cwd=tmp_path)
    assert proc.exit_code == 1
    assert _sarif_results(proc)[("IS104", "d.py", 1)] is None
    (tmp_path / "pkg" / "d.py").unlink()

    # a site only partly baselined is one unsuppressed result (no suppressed twin)
    base = json.loads((tmp_path / "base.json").read_text())
    base["failures"] = [f for f in base["failures"] if f["mode"] == "normal"]
    (tmp_path / "part.json").write_text(json.dumps(base))
    proc = invoke("check", "pkg", "--baseline", "part.json", "--format", "sarif", cwd=tmp_path)
    assert proc.exit_code == 1
    assert _sarif_results(proc)[("IS104", "c.py", 1)] is None

    # a rule that is not selected is not exported at all
    proc = invoke("check", "pkg", "--ignore", "IS104", "--format", "sarif", cwd=tmp_path)
    assert proc.exit_code == 0
    assert _sarif_results(proc) == {("IS101", "b.py", 2): [{"kind": "inSource"}]}

    # `run` exports its waived failures the same way
    proc = invoke("run", "pkg", "--baseline", "base.json", "--format", "sarif", "-j", "2",
                  cwd=tmp_path)
    assert proc.exit_code == 0, proc.output
    assert _sarif_results(proc) == {
        ("IS101", "b.py", 2): [{"kind": "inSource"}],
        ("IS104", "c.py", 1): [{"kind": "external", "justification": "baseline"}]}


# --- GitHub ----------------------------------------------------------------------------------

def test_github_annotations(monkeypatch):
    proc = invoke("check", EXAMPLE, "--format", "github", cwd=ROOT)
    assert proc.exit_code == 1
    lines = proc.stdout.splitlines()
    assert len(lines) == 2
    assert lines[1].startswith("::error file=examples/compiler_pkg/program/_program.py,line=8,"
                               "title=IS101 import-from-partial-module::cannot import name "
                               "'Spec' from partially initialized module")


def test_github_escaping():
    d = Diagnostic("IS004", "undecidable-outcome", "info", "dir,x/a:b.py", 0, "50% done\r\nok")
    out = github.render(Report((), (d,)), None)
    assert out == ("::notice file=dir%2Cx/a%3Ab.py,line=1,title=IS004 undecidable-outcome::"
                   "50%25 done%0D%0Aok\n")
    d = Diagnostic("IS201", "static-dynamic-disagreement", "warning", "", 0, "a: b, c")
    assert github.render(Report((), (d,)), None) == (
        "::warning title=IS201 static-dynamic-disagreement::a: b, c\n")


# --- JUnit -----------------------------------------------------------------------------------

def test_junit_one_testcase_per_entry_and_mode(monkeypatch):
    proc = invoke("check", EXAMPLE, "--format", "junit", cwd=ROOT)
    assert proc.exit_code == 1
    root = ET.fromstring(proc.stdout)
    (suite,) = root.iter("testsuite")
    assert suite.get("name") == "importsafe"
    cases = suite.findall("testcase")
    assert len(cases) == 30 == int(suite.get("tests"))  # 15 modules x normal, bare
    assert len({(c.get("classname"), c.get("name")) for c in cases}) == 30
    failed = [c for c in cases if c.find("failure") is not None]
    assert {(c.get("classname"), c.get("name")) for c in failed} == {
        ("compiler_pkg.backend_api", "bare"), ("compiler_pkg.verifier", "bare"),
        ("compiler_pkg.jit", "bare"), ("compiler_pkg.optimizer", "bare")}
    assert int(suite.get("failures")) == 4 == int(root.get("failures"))
    failure = failed[0].find("failure")
    assert failure.get("type") == "ImportError" and "partially initialized" in failure.get(
        "message")
    assert "-> compiler_pkg.program" in failure.text and "is bound at" in failure.text


def test_junit_unknown_timeout_waived_and_bad_characters():
    chain = (Frame("p.a", "p/a.py", 1),)
    err = ErrorInfo("ImportError", "p.a", "X", "bad \x00 byte", chain)
    report = Report((Result("p", "normal", "ok"),
                     Result("p.a", "normal", "error", err),
                     Result("p.a", "bare", "error", err, waived="baselined"),
                     Result("p.u", "normal", "unknown", reason="module __getattr__"),
                     Result("p.t", "normal", "timeout", reason="timed out after 1 s")))
    root = ET.fromstring(junit.render(report))
    suite = root.find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("5", "2", "2")
    kinds = {(c.get("classname"), c.get("name")): [x.tag for x in c] for c in suite}
    assert kinds[("p.t", "normal")] == ["failure"] and kinds[("p", "normal")] == []
    skipped = suite.find("testcase[@classname='p.a'][@name='bare']/skipped")
    assert skipped.get("message").startswith("baselined: ImportError")


# --- suppressions ----------------------------------------------------------------------------

def test_suppression_parser():
    src = ("import a  # importsafe: ignore[IS101]\n"
           "import b  # noqa  # importsafe: ignore[is101, IS105]\n"
           "from c import (  # nothing\n"
           "    d,  # importsafe: ignore\n"
           ")\n"
           "# importsafe: ignore[IS104]\n"
           "x = '# importsafe: ignore'\n")
    got = suppress.parse(src)
    assert got == {1: frozenset({"IS101"}), 2: frozenset({"IS101", "IS105"}), 3: None, 4: None,
                   6: frozenset({"IS104"})}
    assert suppress.parse(b"# -*- coding: latin-1 -*-\nimport a  # importsafe: ignore\n") == {
        2: None}
    assert suppress.parse("x = (\n") == {}  # an unfinished file is no error
    for bad in (b"# coding: no-such-codec\nimport a  # importsafe: ignore\n",
                b"import a  # importsafe: ignore\n\xff\xfe\n", "x = 'unclosed\n"):
        assert suppress.parse(bad) in ({}, {1: None})


@pytest.mark.parametrize("comment, status, codes", [
    ("", 1, ["IS101"]),
    ("  # importsafe: ignore[IS101]", 0, []),
    ("  # importsafe: ignore", 0, []),
    ("  # importsafe: ignore[IS104,IS101]", 0, ["IS302"]),  # IS104 suppresses nothing
    ("  # importsafe: ignore[IS104]", 1, ["IS101", "IS302"]),
])
def test_suppressed_failure_does_not_fail(tmp_path, comment, status, codes):
    cycle(tmp_path, comment)
    proc = invoke("check", "pkg", "--format", "json", cwd=tmp_path)
    assert proc.exit_code == status, proc.output
    doc = json.loads(proc.stdout)
    failing = [r for r in doc["results"] if r["outcome"] == "error"]
    assert {(r["entry"], r["mode"]) for r in failing} == {("pkg.a", "normal"), ("pkg.a", "bare")}
    assert all(r.get("suppressed", False) == (status == 0) for r in failing)
    # a suppressed site reports no diagnostic; a code that suppresses nothing is IS302
    assert sorted(d["code"] for d in doc["diagnostics"]) == codes
    text = invoke("check", "pkg", cwd=tmp_path).stdout
    assert ("suppressed pkg.a  [bare]" in text) == (status == 0)


def test_suppression_on_another_line_does_nothing(tmp_path):
    cycle(tmp_path)
    (tmp_path / "pkg" / "a.py").write_text("from .b import B  # importsafe: ignore\nA = 1\n")
    assert invoke("check", "pkg", cwd=tmp_path).exit_code == 1


# --- baseline --------------------------------------------------------------------------------

def test_baseline_new_failures_fail_old_ones_do_not(tmp_path):
    cycle(tmp_path)
    proc = invoke("check", "pkg", "--write-baseline", "base.json", cwd=tmp_path)
    assert proc.exit_code == 0, proc.output
    doc = json.loads((tmp_path / "base.json").read_text())
    assert [(f["entry"], f["mode"], f["exception"], f["module"], f["name"])
            for f in doc["failures"]] == [("pkg.a", "bare", "ImportError", "pkg.a", "A"),
                                          ("pkg.a", "normal", "ImportError", "pkg.a", "A")]
    assert "wrote 2 failure(s)" in proc.stderr

    proc = invoke("check", "pkg", "--baseline", "base.json", cwd=tmp_path)
    assert proc.exit_code == 0 and "baselined pkg.a  [normal]" in proc.stdout
    assert "0 failing, 0 unknown, 2 baselined" in proc.stdout

    # code inserted above the import: other line numbers, same failures, still baselined
    (tmp_path / "pkg" / "b.py").write_text('"""Doc."""\nimport os\n\nB = 2\nfrom .a import A\n')
    proc = invoke("check", "pkg", "--baseline", "base.json", "--format", "json", cwd=tmp_path)
    assert proc.exit_code == 0, proc.output
    failing = [r for r in json.loads(proc.stdout)["results"] if r["outcome"] == "error"]
    assert failing[0]["error"]["chain"][-1]["line"] == 5
    assert all(r.get("baselined") for r in failing)

    # a new failure fails, and only it is shown as failing
    (tmp_path / "pkg" / "c.py").write_text("from .missing import X\n")
    proc = invoke("check", "pkg", "--baseline", "base.json", cwd=tmp_path)
    assert proc.exit_code == 1
    assert "FAIL pkg.c  [normal]" in proc.stdout and "FAIL pkg.a" not in proc.stdout
    proc = invoke("check", "pkg", "--baseline", "base.json", "--format", "sarif", cwd=tmp_path)
    results = json.loads(proc.stdout)["runs"][0]["results"]
    assert [r["ruleId"] for r in results if "suppressions" not in r] == ["IS104"]
    assert [r["ruleId"] for r in results if "suppressions" in r] == ["IS101"]  # baselined


def test_baseline_fingerprint_ignores_lines_but_not_the_chain():
    def result(lines, modules=("p.a", "p.b")):
        chain = tuple(Frame(m, f"{m}.py", n) for m, n in zip(modules, lines))
        return Result("p.a", "bare", "error", ErrorInfo("ImportError", "p.a", "A", "m", chain))
    assert baseline.fingerprint(result((1, 2))) == baseline.fingerprint(result((7, 9)))
    assert baseline.fingerprint(result((1, 2))) != baseline.fingerprint(
        result((1, 2, 3), ("p.a", "p.c", "p.b")))


def test_bad_baseline_is_a_usage_error(tmp_path):
    cycle(tmp_path)
    (tmp_path / "bad.json").write_text("[]")
    assert invoke("check", "pkg", "--baseline", "bad.json", cwd=tmp_path).exit_code == 2
    assert invoke("check", "pkg", "--baseline", "missing.json", cwd=tmp_path).exit_code == 2


# --- configuration: skip / select / ignore / baseline, flags over the file ------------------

@pytest.mark.parametrize("table, flags, status", [
    ("", [], 1),
    ("skip = ['pkg.a']", [], 0),
    ("skip = ['pkg.a']", ["--skip", "pkg.zz*"], 1),
    ("", ["--skip", "pkg.?"], 0),
    ("select = ['IS104']", [], 0),
    ("select = ['IS104']", ["--select", "IS1"], 1),
    ("ignore = ['IS101']", [], 0),
    ("ignore = ['IS101']", ["--ignore", "IS104,IS105"], 1),
    ("", ["--ignore", "IS101"], 0),
    ("baseline = 'conf/base.json'", [], 0),
    ("baseline = 'conf/base.json'", ["--baseline", "../empty.json"], 1),
])
def test_configuration_and_flag_precedence(tmp_path, table, flags, status):
    cycle(tmp_path)
    (tmp_path / "pyproject.toml").write_text(f"[tool.importsafe]\npaths = ['pkg']\n{table}\n")
    (tmp_path / "conf").mkdir()
    assert invoke("check", "pkg", "--write-baseline", "conf/base.json",
                  cwd=tmp_path).exit_code == 0
    (tmp_path / "empty.json").write_text('{"importsafe-baseline": 1, "failures": []}')
    # from a subdirectory: the file's paths are relative to the file
    proc = invoke("check", *flags, "--format", "json", cwd=tmp_path / "conf")
    assert proc.exit_code == status, proc.output
    doc = json.loads(proc.stdout)
    skipped = "skip" in table and not flags or "--skip" in flags and status == 0
    assert any(r["entry"] == "pkg.a" for r in doc["results"]) != skipped
    if status == 0 and not skipped:
        assert doc["diagnostics"] == [] and all(
            r.get("ignored") or r.get("baselined") for r in doc["results"]
            if r["outcome"] == "error")


def test_bad_configuration_values(tmp_path):
    cycle(tmp_path)
    for table in ("select = ['XX9']", "ignore = 3", "baseline = 1", "bogus = 1"):
        (tmp_path / "pyproject.toml").write_text(f"[tool.importsafe]\n{table}\n")
        proc = invoke("check", "pkg", cwd=tmp_path)
        assert proc.exit_code == 2, table
    (tmp_path / "pyproject.toml").write_text("")
    assert invoke("check", "pkg", "--select", "IS9", cwd=tmp_path).exit_code == 2
    assert invoke("check", "pkg", "--skip", "pkg*", cwd=tmp_path).exit_code == 2


def test_run_has_the_formats_and_the_same_waivers(tmp_path):
    cycle(tmp_path, "  # importsafe: ignore[IS101]")
    (tmp_path / "pkg" / "c.py").write_text("from .missing import X\n")
    proc = invoke("run", "pkg", "--format", "junit", "-j", "2", cwd=tmp_path)
    assert proc.exit_code == 1, proc.output
    suite = ET.fromstring(proc.stdout).find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("8", "2", "2")
    proc = invoke("run", "pkg", "--skip", "pkg.c", "--format", "sarif", cwd=tmp_path)
    assert proc.exit_code == 0, proc.output
    validate_sarif(json.loads(proc.stdout))


def test_json_report_has_one_record_per_line_and_splits_only_at_records():
    """The JSON report encodes each list in one call and splits it at record boundaries:
    a string holding what looks like a boundary, one record, no record: all round-trip."""
    import json as _json
    from importsafe.model import Diagnostic, ErrorInfo, Frame, Report, Result
    from importsafe.report import json as json_report
    tricky = 'b}, {"entry": "c'
    report = Report((Result("a", "normal", "ok"),
                     Result(tricky, "bare", "error", ErrorInfo(
                         "ImportError", "m", tricky, tricky, (Frame("a", "a.py", 1),)))),
                    (Diagnostic("IS101", "x", "error", "a.py", 1, tricky),))
    text = json_report.render(report)
    assert _json.loads(text) == json_report.to_dict(report)
    lines = text.splitlines()
    assert [_json.loads(line.strip().rstrip(","))["entry"] for line in lines[4:6]] == ["a", tricky]
    single = Report((Result("a", "normal", "ok"),))
    assert _json.loads(json_report.render(single)) == json_report.to_dict(single)
    assert _json.loads(json_report.render(Report(()))) == json_report.to_dict(Report(()))


# --- suppressions are checked (IS301, IS302: ruff's RUF100) -----------------------------------

def test_unknown_code_in_a_suppression_is_an_error(tmp_path):
    cycle(tmp_path, "  # importsafe: ignore[IS999]")
    proc = invoke("check", "pkg", "--format", "json", cwd=tmp_path)
    assert proc.exit_code == 1
    codes = {(d["code"], d["severity"], d["line"]) for d in json.loads(proc.stdout)["diagnostics"]}
    assert ("IS301", "error", 2) in codes and ("IS101", "error", 2) in codes
    # an unknown code fails the run even where nothing else fails
    (tmp_path / "pkg" / "b.py").write_text("B = 2  # importsafe: ignore[IS1O1]\n")
    (tmp_path / "pkg" / "a.py").write_text("A = 1\n")
    proc = invoke("check", "pkg", cwd=tmp_path)
    assert proc.exit_code == 1 and "IS301" in proc.stdout and "IS1O1" in proc.stdout
    assert "0 failing" in proc.stdout


def test_a_suppression_that_matches_nothing_is_a_warning_off_with_ignore(tmp_path):
    cycle(tmp_path)
    (tmp_path / "pkg" / "c.py").write_text(
        "import os  # importsafe: ignore\nX = (1,  # importsafe: ignore[IS104]\n     2)\n")
    proc = invoke("check", "pkg", "--format", "json", cwd=tmp_path)
    found = [(d["code"], d["severity"], Path(d["file"]).name, d["line"])
             for d in json.loads(proc.stdout)["diagnostics"] if d["code"] == "IS302"]
    assert found == [("IS302", "warning", "c.py", 1), ("IS302", "warning", "c.py", 2)]
    assert proc.exit_code == 1  # the cycle; a warning alone does not fail
    text = invoke("check", "pkg", cwd=tmp_path).stdout
    assert "c.py:1: IS302 unused-suppression" in text
    quiet = invoke("check", "pkg", "--ignore", "IS302", "--format", "json", cwd=tmp_path)
    assert not [d for d in json.loads(quiet.stdout)["diagnostics"] if d["code"] == "IS302"]
    # used ones are not reported; the unused code of a used comment is
    cycle(tmp_path, "  # importsafe: ignore[IS101, IS104]")
    (tmp_path / "pkg" / "c.py").unlink()
    proc = invoke("check", "pkg", "--format", "json", cwd=tmp_path)
    assert proc.exit_code == 0
    (d,) = json.loads(proc.stdout)["diagnostics"]
    assert d["code"] == "IS302" and "ignore[IS104]" in d["message"]


def test_new_rules_have_their_documentation():
    for code in ("IS301", "IS302"):
        rule = importsafe.rules.RULES[code]
        assert rule.what and rule.why and rule.example and rule.fix, code
