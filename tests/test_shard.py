"""`check --shard K/N` jobs merged with `importsafe merge` give the unsharded report."""
import json

import pytest

import randpkg
from test_cli import EXAMPLE, run_cli


def sharded_then_merged(path, tmp_path, n=4):
    files = []
    for k in range(1, n + 1):
        proc = run_cli("check", path, "--shard", f"{k}/{n}", "--format", "json", "--no-cache")
        assert proc.returncode in (0, 1), proc.stderr
        files.append(tmp_path / f"shard{k}.json")
        files[-1].write_text(proc.stdout)
    return run_cli("merge", *files, "--format", "json")


@pytest.mark.parametrize("which", ["example", "random"])
def test_four_shards_merge_to_the_unsharded_report(which, tmp_path):
    path = EXAMPLE if which == "example" else randpkg.write(randpkg.generate(7), tmp_path / "r")
    whole = run_cli("check", path, "--format", "json", "--no-cache")
    merged = sharded_then_merged(path, tmp_path)
    assert merged.returncode == whole.returncode
    assert json.loads(merged.stdout) == json.loads(whole.stdout)
    assert len(json.loads(whole.stdout)["results"]) >= 8


def test_bad_shard_is_a_usage_error():
    proc = run_cli("check", EXAMPLE, "--shard", "5/4")
    assert proc.returncode == 2 and "--shard" in proc.stderr


def _shards(tmp_path, n=6, *extra):
    from test_formats import invoke
    files = []
    for k in range(1, n + 1):
        proc = invoke("check", EXAMPLE, "--shard", f"{k}/{n}", "--format", "json",
                      "--no-cache", *extra, cwd=tmp_path)
        assert proc.exit_code in (0, 1), proc.output
        files.append(tmp_path / f"s{n}_{k}{'x' if extra else ''}.json")
        files[-1].write_text(proc.stdout)
    return files


def _merge(tmp_path, *args):
    from test_formats import invoke
    return invoke("merge", *args, cwd=tmp_path)


def test_a_shard_records_what_it_is(tmp_path):
    files = _shards(tmp_path, 3)
    records = [json.loads(f.read_text())["shard"] for f in files]
    assert [(r["index"], r["count"]) for r in records] == [(1, 3), (2, 3), (3, 3)]
    assert len({r["digest"] for r in records}) == 1 and len(records[0]["digest"]) == 64


def test_merge_refuses_missing_duplicated_and_mismatched_shards(tmp_path):
    files = _shards(tmp_path, 6)
    whole = _merge(tmp_path, *files)
    assert whole.exit_code == 1  # the example fails, as the unsharded check does
    missing = _merge(tmp_path, files[1], files[2], files[4])  # shards 2, 3, 5 of 6
    assert missing.exit_code == 2
    assert "missing shards 1/6, 4/6, 6/6" in missing.stderr and "0 failing" not in missing.stdout
    twice = _merge(tmp_path, *files, files[1])
    assert twice.exit_code == 2 and "2/6" in twice.stderr and "more than once" in twice.stderr
    assert files[1].name in twice.stderr
    other = _shards(tmp_path, 6, "--mode", "bare")  # another run: other arguments
    mixed = _merge(tmp_path, *files[:3], *other[3:])
    assert mixed.exit_code == 2 and "different runs" in mixed.stderr
    assert other[3].name in mixed.stderr and files[0].name in mixed.stderr
    counts = _shards(tmp_path, 2)
    assert _merge(tmp_path, *files[:3], counts[1]).exit_code == 2


def test_merge_names_files_that_are_not_shards(tmp_path):
    from test_formats import invoke
    (tmp_path / "notpy.txt").write_text("hello\n")
    (tmp_path / "bytes.json").write_bytes(b"\xff\xfe{")
    sarif = invoke("check", EXAMPLE, "--format", "sarif", cwd=tmp_path).stdout
    (tmp_path / "check.sarif").write_text(sarif)
    whole = invoke("check", EXAMPLE, "--format", "json", cwd=tmp_path).stdout
    (tmp_path / "whole.json").write_text(whole)
    for name, said in [("notpy.txt", "not JSON"), ("bytes.json", "not JSON"),
                       ("check.sarif", "not an importsafe JSON report"),
                       ("whole.json", "not of a shard"), ("absent.json", "cannot read")]:
        proc = _merge(tmp_path, name)
        assert proc.exit_code == 2, name
        assert proc.stderr.count("\n") == 1 and name in proc.stderr and said in proc.stderr, \
            proc.stderr
        assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "junit", "html"])
def test_merge_prints_every_format_as_check_does(tmp_path, fmt):
    from test_formats import invoke
    files = _shards(tmp_path, 2)
    merged = _merge(tmp_path, *files, "--format", fmt)
    whole = invoke("check", EXAMPLE, "--format", fmt, "--no-cache", cwd=tmp_path)
    assert merged.exit_code == whole.exit_code == 1
    if fmt == "sarif":  # the unsharded run knows its configuration file: the same results
        strip = (lambda d: [{k: v for k, v in r.items()} for r in d["runs"][0]["results"]])
        assert strip(json.loads(merged.stdout)) == strip(json.loads(whole.stdout))
    elif fmt == "html":
        assert merged.stdout.count('class="failure"') == whole.stdout.count('class="failure"')
    else:
        assert merged.stdout == whole.stdout
