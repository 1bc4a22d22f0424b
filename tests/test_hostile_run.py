"""`importsafe run` against modules that misbehave as processes: nothing a run starts outlives
it, whatever signal ends it, and no module can reach importsafe's own process."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_cli import write

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc")

RECORD = ("import os\n"
          "def record(tag):\n"
          "    d = os.environ['HOSTILE_PIDS']\n"
          "    with open(os.path.join(d, '%s-%d' % (tag, os.getpid())), 'w'):\n"
          "        pass\n")
MODULES = {
    "hostile/__init__.py": "",
    "hostile/_rec.py": RECORD,
    # a busy loop, as the one that stayed at 100% CPU
    "hostile/busy.py": "from hostile._rec import record\nrecord('busy')\nwhile True:\n    pass\n",
    # a forked child that outlives its parent's import
    "hostile/forker.py": "import os, time\nfrom hostile._rec import record\n"
                         "if os.fork() == 0:\n    record('forked')\n    while True:\n"
                         "        time.sleep(0.1)\nrecord('forker')\ntime.sleep(600)\n",
    # a setsid grandchild: another session, another process group, its parent gone
    "hostile/daemon.py": "import os, time\nfrom hostile._rec import record\n"
                         "if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
                         "        record('setsid')\n        while True:\n            pass\n"
                         "    os._exit(0)\nrecord('daemon')\ntime.sleep(600)\n",
}


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _descendants(root: int) -> set[int]:
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    parents[int(name)] = int(f.read().rpartition(")")[2].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        for child, parent in parents.items():
            if parent == pid and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _start(tmp_path: Path, *flags):
    pkg = write(tmp_path / "src", MODULES) / "hostile"
    pids, tmp = tmp_path / "pids", tmp_path / "tmp"
    pids.mkdir()
    tmp.mkdir()
    env = dict(os.environ, HOSTILE_PIDS=str(pids), TMPDIR=str(tmp))
    proc = subprocess.Popen([sys.executable, "-m", "importsafe", "run", str(pkg), "--timeout",
                             "120", "-j", "8", "--mode", "normal", *flags], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    wanted = {"busy", "forked", "forker", "setsid", "daemon"}
    deadline = time.monotonic() + 60
    while {p.name.split("-")[0] for p in pids.iterdir()} < wanted:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.1)
    return proc, pids, tmp


@pytest.mark.parametrize("flags", [(), ("--no-fork",)], ids=["fork", "no-fork"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_ends_every_process_of_the_run(tmp_path, sig, flags):
    proc, pids, tmp = _start(tmp_path, *flags)
    time.sleep(0.3)
    started = _descendants(proc.pid) | {int(p.name.split("-")[1]) for p in pids.iterdir()}
    assert len(started) >= 5
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    assert proc.returncode == -sig  # the signal's default course, after the clean-up
    deadline = time.monotonic() + 10
    while any(map(_alive, started)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in started if _alive(p)], "processes of the run outlived it"
    assert list(tmp.iterdir()) == [], "temporary directories left behind"


KILLERS = {"kp/__init__.py": "", "kp/ok.py": "X = 1\n",
           "kp/killer.py": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n",
           "kp/patcher.py": "import json\ndef dumps(*a, **k):\n    raise RuntimeError('no')\n"
                            "json.dumps = dumps\njson.loads = dumps\n"}


@pytest.mark.parametrize("flags", [(), ("--no-fork",)], ids=["fork", "no-fork"])
def test_a_module_cannot_kill_importsafe_or_break_its_reporting(tmp_path, flags):
    pkg = write(tmp_path, KILLERS) / "kp"
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = subprocess.run([sys.executable, "-m", "importsafe", "run", str(pkg), "--format",
                           "json", "--timeout", "60", *flags], capture_output=True, text=True,
                          env=dict(os.environ, TMPDIR=str(tmp)), timeout=300)
    assert proc.returncode == 1, proc.stderr
    got = {(r["entry"], r["mode"]): r for r in json.loads(proc.stdout)["results"]}
    for mode in ("normal", "bare"):
        assert got[("kp.killer", mode)]["outcome"] == "crash"
        assert "probe" not in got[("kp.killer", mode)]["reason"]
        assert got[("kp.patcher", mode)]["outcome"] == "ok"  # its own json, not the module's
        assert got[("kp.ok", mode)]["outcome"] == "ok"
    assert list(tmp.iterdir()) == []


def test_copy_runs_against_a_copy_of_the_tree(tmp_path):
    files = {"dp/__init__.py": "", "dp/b.py": "B = 1\n",
             "dp/deleter.py": "import os\nos.remove(os.path.join(os.path.dirname(__file__), "
                              "'b.py'))\nfrom dp import missing\n"}
    pkg = write(tmp_path, files) / "dp"
    proc = subprocess.run([sys.executable, "-m", "importsafe", "run", str(pkg), "--copy",
                           "--format", "json", "--mode", "normal"], capture_output=True,
                          text=True, timeout=300)
    assert (pkg / "b.py").exists()
    result = next(r for r in json.loads(proc.stdout)["results"] if r["entry"] == "dp.deleter")
    assert result["error"]["exception"] == "ImportError"
    assert Path(result["error"]["chain"][-1]["file"]) == pkg / "deleter.py"  # the original
