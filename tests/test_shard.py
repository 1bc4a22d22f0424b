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
