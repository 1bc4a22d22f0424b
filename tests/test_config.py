"""Configuration checked like ruff and mypy check theirs: every key's type and value, one
line naming the file, the key and what it must be, exit status 2; ruff's --config,
--output-file, --exit-zero and --statistics; the nearest pyproject.toml with our table."""
import json
import os

import pytest

from test_formats import CYCLE as _CYCLE, invoke, write

CYCLE = {k: v.format(comment="") for k, v in _CYCLE.items()}  # pkg.a <-> pkg.b

from importsafe.config.keys import KEYS

# a value of the wrong type (or a wrong value) for every key
WRONG = {
    "paths": ['"pkg"', "3", '["pkg", 1]', '[""]'],
    "source-roots": ["1", '"."'],
    "modes": ["3", '["normal", 7]', '["sideways"]', "[]", '"normal,bare"'],
    "target-version": ["3.12", '"2.7"', '"4.0"', '"3.99999999999999999999"', '"3.16"',
                       '"three"'],
    "jobs": ["0", "-5", "true", '"2"', "2000", "1.5"],
    "pytest": ['"yes"', "1"],
    "strict": ['"yes"', "0"],
    "baseline": ["1", '""', "[]"],
    "skip": ['"pkg.a"', "[1]"],
    "select": ['["XX9"]', "3", '"IS101"'],
    "ignore": ['["IS9"]', "{}"],
    "effects": ['"registry"', "[1]", "3"],
    "env": ["3", '"X=1"', "[\"X=1\"]", "{X = 1}", '{"A=B" = "1"}', "{X = true}"],
}


def test_every_key_has_wrong_values_here():
    assert set(WRONG) == {k.name for k in KEYS}


@pytest.mark.parametrize("key, value", [(k, v) for k, vs in WRONG.items() for v in vs])
def test_a_wrong_value_is_one_line_with_file_key_and_expected_type(tmp_path, key, value):
    write(tmp_path, CYCLE | {"pyproject.toml": f"[tool.importsafe]\n{key} = {value}\n"})
    proc = invoke("check", "pkg", cwd=tmp_path)
    assert proc.exit_code == 2, proc.output
    (line,) = proc.stderr.strip().splitlines()
    spec = next(k for k in KEYS if k.name == key)
    assert line.startswith(f"importsafe: error: {tmp_path / 'pyproject.toml'}: "
                           f"[tool.importsafe] {key}: expected {spec.expected}, got ")
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("key, value", [
    ("paths", '["pkg"]'), ("source-roots", '["."]'), ("modes", '["bare", "lazy"]'),
    ("target-version", '"3.15"'), ("jobs", "2"), ("pytest", "false"), ("skip", '["x.*"]'),
    ("select", '["IS1"]'), ("ignore", '["IS302"]'), ("env", '{PKG_DEBUG = "1"}'),
])
def test_right_values_are_accepted(tmp_path, key, value):
    write(tmp_path, CYCLE | {"pyproject.toml": f"[tool.importsafe]\n{key} = {value}\n"})
    assert invoke("check", "pkg", cwd=tmp_path).exit_code == 1  # the cycle fails


@pytest.mark.parametrize("content, said", [
    (b"[tool.importsafe]\npaths = ['\xff']\n", "not UTF-8"),
    (b"[tool.importsafe\n", "not valid TOML"),
    (b"tool = 3\n", "[tool] must be a table"),
    (b"[tool]\nimportsafe = 3\n", "[tool.importsafe] must be a table"),
])
def test_unusable_files_are_a_clear_error(tmp_path, content, said):
    write(tmp_path, CYCLE)
    (tmp_path / "pyproject.toml").write_bytes(content)
    proc = invoke("check", "pkg", cwd=tmp_path)
    assert proc.exit_code == 2 and said in proc.stderr and "Traceback" not in proc.stderr
    assert str(tmp_path / "pyproject.toml") in proc.stderr


def test_a_config_that_is_not_a_regular_file(tmp_path):
    write(tmp_path, CYCLE)
    os.mkfifo(tmp_path / "fifo.toml")
    proc = invoke("check", "pkg", "--config", "fifo.toml", cwd=tmp_path)
    assert proc.exit_code == 2 and "not a regular file" in proc.stderr
    proc = invoke("check", "pkg", "--config", "missing.toml", cwd=tmp_path)
    assert proc.exit_code == 2 and "missing.toml" in proc.stderr


def test_the_nearest_pyproject_with_our_table_wins(tmp_path):
    """ruff's rule: a pyproject.toml without [tool.importsafe] is passed over."""
    write(tmp_path, {"pyproject.toml": "[tool.importsafe]\nmodes = ['bare']\n",
                     "sub/pyproject.toml": "[project]\nname = 'sub'\n",
                     **{f"sub/{k}": v for k, v in CYCLE.items()}})
    proc = invoke("check", "pkg", "--format", "json", cwd=tmp_path / "sub")
    assert {r["mode"] for r in json.loads(proc.stdout)["results"]} == {"bare"}
    (tmp_path / "sub" / "pyproject.toml").write_text("[tool.importsafe]\nmodes = ['normal']\n")
    proc = invoke("check", "pkg", "--format", "json", cwd=tmp_path / "sub")
    assert {r["mode"] for r in json.loads(proc.stdout)["results"]} == {"normal"}


def test_config_flag_names_the_file(tmp_path):
    write(tmp_path, CYCLE | {"conf/mine.toml": "[tool.importsafe]\nmodes = ['bare']\n"
                                               "paths = ['../pkg']\n",
                             "conf/none.toml": "[project]\nname = 'x'\n"})
    proc = invoke("check", "--config", "conf/mine.toml", "--format", "json", cwd=tmp_path)
    doc = json.loads(proc.stdout)
    assert {r["mode"] for r in doc["results"]} == {"bare"} and doc["results"][0]["entry"] == "pkg"
    proc = invoke("check", "pkg", "--config", "conf/none.toml", cwd=tmp_path)
    assert proc.exit_code == 2 and "no [tool.importsafe] table" in proc.stderr


def test_output_file_exit_zero_and_statistics(tmp_path):
    write(tmp_path, CYCLE)
    proc = invoke("check", "pkg", "--format", "sarif", "-o", "out/deep/r.sarif", cwd=tmp_path)
    assert proc.exit_code == 1 and proc.stdout == ""
    assert json.loads((tmp_path / "out" / "deep" / "r.sarif").read_text())["version"] == "2.1.0"
    assert not [p for p in (tmp_path / "out" / "deep").iterdir() if ".tmp" in p.name]
    proc = invoke("check", "pkg", "--exit-zero", cwd=tmp_path)
    assert proc.exit_code == 0 and "FAIL pkg.a" in proc.stdout
    assert invoke("check", "missing", "--exit-zero", cwd=tmp_path).exit_code == 2
    proc = invoke("check", "pkg", "--statistics", cwd=tmp_path)
    assert proc.exit_code == 1
    assert proc.stdout.split() == ["1", "IS101", "import-from-partial-module", "(2", "first",
                                   "imports)"]
    stats = json.loads(invoke("check", "pkg", "--statistics", "--format", "json",
                              cwd=tmp_path).stdout)
    assert stats == [{"code": "IS101", "name": "import-from-partial-module", "count": 1,
                      "first_imports": 2}]
    proc = invoke("check", "pkg", "-o", "report.txt", cwd=tmp_path)
    assert "FAIL pkg.a" in (tmp_path / "report.txt").read_text() and proc.stdout == ""


@pytest.mark.parametrize("args, said", [
    (["-j", "0"], "-j/--jobs"), (["-j", "-5"], "-j/--jobs"), (["-j", "5000"], "-j/--jobs"),
    (["--target-version", "2.7"], "--target-version"),
    (["--target-version", "4.0"], "--target-version"),
    (["--target-version", "3.99999999999999999999"], "--target-version"),
    (["--target-version", "3.16"], "--target-version"),
    (["--target-version", "3"], "--target-version"),
])
def test_jobs_and_target_version_are_checked(tmp_path, args, said):
    write(tmp_path, CYCLE)
    for command in ("check", "run"):
        proc = invoke(command, "pkg", *args, cwd=tmp_path)
        assert proc.exit_code == 2 and said in proc.stderr, (command, proc.output)


def test_requires_python_gives_the_default_target_within_known_versions(tmp_path):
    write(tmp_path, CYCLE | {"pyproject.toml": "[project]\nrequires-python = '>=2.7'\n"})
    assert invoke("check", "pkg", cwd=tmp_path).exit_code == 1  # read as 3.0, no error
    (tmp_path / "pyproject.toml").write_text("[project]\nrequires-python = '>=3.99'\n")
    assert invoke("check", "pkg", cwd=tmp_path).exit_code == 1
