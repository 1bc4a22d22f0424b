"""`importsafe explain`: the replay of one (entry, mode), the cycle line, the reason."""
import json

import importsafe.api as api
from test_cli import EXAMPLE, run_cli, write


def test_example_backend_api_cycle_line_and_reason():
    x = api.explain([str(EXAMPLE)], "compiler_pkg.backend_api", "bare")
    assert x.cycle == ("backend_api -> program._fake_program -> program/__init__ -> "
                       "program._program -> backend_api")
    assert x.why == ("'Spec' is bound at line 17 of compiler_pkg.backend_api, but "
                     "compiler_pkg.backend_api was still at line 7, running the import that "
                     "led here")
    assert [s.module for s in x.steps[:3]] == [
        "compiler_pkg.backend_api", "compiler_pkg.program", "compiler_pkg.program._program"]
    assert x.steps[0].importer is None
    assert x.steps[1].importer.line == 7 and x.steps[1].outcome == "failed"
    assert all(s.outcome == "done" for s in x.steps[3:])


def test_explain_cli_by_path_text_and_json():
    proc = run_cli("explain", EXAMPLE / "verifier.py", "--mode", "bare")
    assert proc.returncode == 1
    assert "cycle: verifier -> capture._config -> capture/__init__ -> capture._capture -> " \
           "verifier" in proc.stdout
    assert "stopped at examples/compiler_pkg/capture/_capture.py:" in proc.stdout
    proc = run_cli("explain", "compiler_pkg.verifier", EXAMPLE, "--format", "json")
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0 and doc["result"]["outcome"] == "ok" and doc["cycle"] is None
    assert doc["steps"][0]["module"] == "compiler_pkg" and doc["steps"][0]["imported_by"] is None


def test_explain_reasons_for_bare_and_missing_submodule(tmp_path):
    write(tmp_path, {"bp/__init__.py": "HELPER = 1\n", "bp/mod.py": "from bp import HELPER\n",
                     "bp/user.py": "import bp\nX = bp.other\n", "bp/other.py": "import bp.user\n"})
    x = api.explain([str(tmp_path / "bp")], "bp.mod", "bare")
    assert "__init__ of bp, which bare mode never runs" in x.why
    x = api.explain([str(tmp_path / "bp")], "bp.other", "normal")
    assert x.result.error.exception == "AttributeError"
    assert "is the submodule bp.other" in x.why


def test_explain_unknown_entry_is_a_usage_error():
    proc = run_cli("explain", "compiler_pkg.nope", EXAMPLE)
    assert proc.returncode == 2 and "no module 'compiler_pkg.nope'" in proc.stderr
