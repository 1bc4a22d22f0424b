"""Run the (entry, mode) matrix for real: the parent side of importsafe's dynamic runs.

Fork mode (default): one long-lived probe server per worker (`probe.py --serve`, started with
the target interpreter) receives jobs as JSON lines and forks one child per (entry, mode) from
a process that has not imported the target package. At most `workers` jobs are in flight at
once, over all servers. `normal` jobs use zygotes: once package P's own `normal` job succeeds,
its process stays alive and forks the jobs of the entries below P (the jobs wait for it), so
P's `__init__` runs once instead of once per entry. Such a job is routed to the server holding
the zygote, through the chain of zygotes from the top; a zygote is closed when every job
below it has ended.

Fresh mode (`fork=False`, or a target without fork): a new interpreter per (entry, mode)
(`probe.py --result FILE ROOTS ENTRY MODE`), the faithful reference.

Either way each job runs with stdin on /dev/null, stdout+stderr in a file of its own, a
temporary working directory, PYTHONDONTWRITEBYTECODE=1, and is killed (with its process
group) at the timeout.
"""
from __future__ import annotations

import heapq
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Callable, Sequence

from ..model import ErrorInfo, Frame, Report, Result
from . import probe

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe.py")
DEFAULT_TIMEOUT = 60.0
MIN_VERSION = (3, 8)
HELLO_TIMEOUT = 30.0

Progress = Callable[[int, int, int], None]  # (done, total, failures so far)


class ProbeError(Exception):
    """The target interpreter cannot run the probe (a usage error: exit status 2)."""


@dataclass(frozen=True, slots=True)
class DynamicReport(Report):
    """A Report of real runs, plus the captured stdout/stderr of each job when asked."""

    outputs: tuple[tuple[str, str, str], ...] = ()  # (entry, mode, text)

    def output(self, entry: str, mode: str) -> str | None:
        for e, m, text in self.outputs:
            if e == entry and m == mode:
                return text
        return None


# --- outcomes ---------------------------------------------------------------------------

def to_result(msg: dict) -> Result:
    """A probe outcome dict -> Result."""
    entry, mode, outcome = msg["entry"], msg["mode"], msg.get("outcome")
    if outcome == "ok":
        return Result(entry, mode, "ok")
    if outcome == "error":
        err = msg["error"]
        chain = tuple(Frame(str(f.get("module")), f.get("file") or "", int(f.get("line") or 0))
                      for f in err.get("chain") or ())
        return Result(entry, mode, "error", ErrorInfo(
            err["exception"], err.get("module"), err.get("name"), err.get("message", ""), chain))
    if outcome not in ("timeout", "crash"):
        return Result(entry, mode, "crash", reason=f"unexpected probe answer: {msg!r}")
    return Result(entry, mode, outcome, reason=msg.get("reason") or outcome)


def _exit_reason(returncode: int) -> str:
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"killed by signal {-returncode} ({name})"
    return f"exited with code {returncode} without reporting an outcome"


def probe_env() -> dict:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    for var in ("PYTHONINSPECT", "PYTHONSTARTUP"):
        env.pop(var, None)
    return env


def resolve_python(python: str | None) -> str:
    if not python:
        return sys.executable
    found = shutil.which(python) if os.sep not in python else python
    if not found or not os.path.isfile(found) or not os.access(found, os.X_OK):
        raise ProbeError(f"python interpreter not found or not executable: {python}")
    return found


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


# --- fresh interpreters ------------------------------------------------------------------

def _run_fresh(python, roots, job_id, entry, mode, timeout, base, env, capture) -> dict:
    job_dir = os.path.join(base, f"job{job_id}")
    cwd = os.path.join(job_dir, "cwd")
    os.makedirs(cwd)
    result_path = os.path.join(job_dir, "result.json")
    out_path = os.path.join(job_dir, "output")
    msg: dict = {"entry": entry, "mode": mode}
    with open(out_path, "wb") as out:
        proc = subprocess.Popen(
            [python, "-B", PROBE, "--result", result_path, os.pathsep.join(roots), entry, mode],
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, cwd=cwd, env=env,
            start_new_session=True)
        try:
            proc.wait(timeout=timeout or None)
        except subprocess.TimeoutExpired:
            _kill_group(proc.pid)
            proc.wait()
            msg.update(outcome="timeout", reason=f"still running after {timeout:g}s: killed")
        except BaseException:
            _kill_group(proc.pid)
            proc.wait()
            raise
    if "outcome" not in msg:
        try:
            with open(result_path) as f:
                msg = json.load(f)
        except (OSError, ValueError):
            msg.update(outcome="crash", reason=_exit_reason(proc.returncode))
    if capture:
        text = probe.read_tail(out_path)
        if text:
            msg["output"] = text
    shutil.rmtree(job_dir, ignore_errors=True)
    return msg


def _check_interpreter(python: str, env: dict) -> None:
    code = "import sys; print('%d.%d' % sys.version_info[:2])"
    try:
        proc = subprocess.run([python, "-c", code], capture_output=True, text=True, env=env,
                              timeout=HELLO_TIMEOUT, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ProbeError(f"cannot run {python}: {exc}") from None
    _check_version(python, proc.stdout.strip(), proc.stderr)


def _check_version(python: str, text: str, stderr: str = "") -> None:
    try:
        version = tuple(int(p) for p in text.split(".")[:2])
    except ValueError:
        version = ()
    if len(version) != 2:
        raise ProbeError(f"{python} did not start the probe: {stderr.strip()[-500:] or text!r}")
    if version < MIN_VERSION:
        raise ProbeError(f"{python} is Python {text}; the probe needs 3.8 or newer")


def run_fresh(python, roots, jobs, workers, timeout, capture, progress, base, env):
    """One new interpreter per (entry, mode), `workers` at a time."""
    _check_interpreter(python, env)
    total, done, failures = len(jobs), 0, 0
    out: list = [None] * total
    if progress:
        progress(0, total, 0)
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = {pool.submit(_run_fresh, python, roots, i, e, m, timeout, base, env, capture): i
                   for i, (e, m) in enumerate(jobs)}
        try:
            for fut in as_completed(futures):
                msg = fut.result()
                out[futures[fut]] = msg
                done += 1
                failures += msg.get("outcome") != "ok"
                if progress:
                    progress(done, total, failures)
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise
    return out


# --- fork servers ------------------------------------------------------------------------

class _Server:
    """One `probe.py --serve` process and the jobs in flight on it."""

    def __init__(self, python, config, base, env, index):
        self.err_path = os.path.join(base, f"server{index}.err")
        with open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen([python, "-B", PROBE, "--serve"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=err, cwd=base, env=env,
                                         start_new_session=True)
        self.out_fd = self.proc.stdout.fileno()
        self.buf = b""
        self.inflight: set[int] = set()
        self.hello: dict | None = None
        self.config = config
        self.alive = True

    def read_hello(self) -> dict:
        deadline = time.monotonic() + HELLO_TIMEOUT
        sel = selectors.DefaultSelector()
        sel.register(self.out_fd, selectors.EVENT_READ)
        try:
            while b"\n" not in self.buf:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise ProbeError("the probe server did not answer within "
                                     f"{HELLO_TIMEOUT:g}s: {self.stderr_tail()}")
                data = os.read(self.out_fd, 65536)
                if not data:
                    raise ProbeError(f"the probe server did not start: {self.stderr_tail()}")
                self.buf += data
        finally:
            sel.close()
        line, self.buf = self.buf.split(b"\n", 1)
        try:
            self.hello = json.loads(line)
        except ValueError:
            raise ProbeError(f"the probe server said {line[:200]!r}: {self.stderr_tail()}") \
                from None
        return self.hello

    def send(self, msg: dict) -> None:
        os.write(self.proc.stdin.fileno(), (json.dumps(msg) + "\n").encode())

    def lines(self) -> list[dict] | None:
        """Complete lines available now; None once the server has gone."""
        data = os.read(self.out_fd, 1 << 16)
        if not data:
            self.alive = False
            return None
        self.buf += data
        out = []
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            out.append(json.loads(line))
        return out

    def stderr_tail(self) -> str:
        return (probe.read_tail(self.err_path, 2000) or "").strip() or "(no output)"

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def stop(self, grace: float = 5.0) -> None:
        self.close()
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                _kill_group(self.proc.pid)
                self.proc.wait()
        self.proc.stdout.close()


class _Plan:
    """Which jobs wait for which zygote, and when a zygote can be closed."""

    def __init__(self, jobs: Sequence[tuple[str, str]], zygotes: bool):
        self.jobs = list(jobs)
        self.parent: dict[int, int] = {}  # normal job -> normal job of its nearest ancestor
        self.children: dict[int, list[int]] = {}
        normal = {e: i for i, (e, m) in enumerate(jobs) if m == "normal"}
        if zygotes:
            for entry, i in normal.items():
                name = entry
                while "." in name:
                    name = name.rpartition(".")[0]
                    if name in normal:
                        self.parent[i] = normal[name]
                        self.children.setdefault(normal[name], []).append(i)
                        break
        self.below: dict[int, int] = {}  # job -> jobs below it not finished yet
        for i in self.parent:
            for a in self.ancestors(i):
                self.below[a] = self.below.get(a, 0) + 1

    def ancestors(self, i: int):
        while i in self.parent:
            i = self.parent[i]
            yield i


def run_forked(python, roots, jobs, workers, timeout, capture, progress, base, env,
               zygotes=True):
    """Fork servers; returns outcome dicts in job order, or None if the target cannot fork."""
    config = {"op": "config", "roots": list(roots), "timeout": timeout or 0, "base": base,
              "capture": bool(capture)}
    nservers = max(1, min(workers, len(jobs)))
    servers: list[_Server] = []
    total, done, failures = len(jobs), 0, 0
    out: list = [None] * total
    plan = _Plan(jobs, zygotes)
    route: dict[int, list[str]] = {}  # job -> zygotes to go through, from the top
    home: dict[int, _Server] = {}  # job -> server it ran on
    live: dict[int, _Server] = {}  # zygote job -> its server
    ready = [i for i in range(total) if i not in plan.parent]
    heapq.heapify(ready)
    sel = selectors.DefaultSelector()

    def start_server(server: _Server) -> bool:
        """Wait for its hello; False if the target cannot fork."""
        hello = server.read_hello()
        _check_version(python, ".".join(map(str, hello.get("version", [])[:2])))
        if not hello.get("fork"):
            return False
        server.send(config)
        sel.register(server.out_fd, selectors.EVENT_READ, server)
        return True

    def dispatch() -> None:
        inflight = sum(len(s.inflight) for s in servers)
        while ready and inflight < workers:
            i = heapq.heappop(ready)
            entry, mode = jobs[i]
            parent = plan.parent.get(i)
            path: list[str] = []
            if parent is not None:
                path = list(route.get(parent, []))
                if parent in live:
                    path.append(jobs[parent][0])
            if path and all(z in live for z in _zygote_jobs(path)):
                server = home[_zygote_jobs(path)[0]]
            else:
                path = []
                server = min((s for s in servers if s.alive), key=lambda s: len(s.inflight))
            route[i], home[i] = path, server
            server.inflight.add(i)
            server.send({"op": "job", "id": i, "entry": entry, "mode": mode,
                         "zygote": i in plan.children, "route": path})
            inflight += 1

    names = {e: i for i, (e, m) in enumerate(jobs) if m == "normal"}

    def _zygote_jobs(path: list[str]) -> list[int]:
        return [names[z] for z in path]

    def finish(i: int, msg: dict) -> None:
        nonlocal done, failures
        if out[i] is not None:
            return
        out[i] = msg
        home[i].inflight.discard(i)
        done += 1
        failures += msg.get("outcome") != "ok"
        if msg.get("zygote") and home[i].alive:
            live[i] = home[i]
        for child in plan.children.get(i, ()):
            heapq.heappush(ready, child)
        for a in plan.ancestors(i):
            plan.below[a] -= 1
            if plan.below[a] == 0 and a in live:
                server = live.pop(a)
                if server.alive:
                    server.send({"op": "close", "route": route[a] + [jobs[a][0]]})
        if i in live and not plan.below.get(i):
            server = live.pop(i)
            server.send({"op": "close", "route": route[i] + [jobs[i][0]]})
        if progress:
            progress(done, total, failures)

    try:
        servers.extend(_Server(python, config, base, env, k) for k in range(nservers))
        for server in servers:
            if not start_server(server):
                return None
        if progress:
            progress(0, total, 0)
        dispatch()
        while done < total:
            for key, _ in sel.select():
                server: _Server = key.data
                msgs = server.lines()
                if msgs is None:  # the server died: its jobs and zygotes with it
                    sel.unregister(server.out_fd)
                    reason = f"probe server died: {server.stderr_tail()}"
                    for i in sorted(server.inflight):
                        finish(i, {"entry": jobs[i][0], "mode": jobs[i][1],
                                   "outcome": "crash", "reason": reason})
                    for z in [z for z, s in live.items() if s is server]:
                        del live[z]
                    index = servers.index(server)
                    server.stop(0)
                    servers[index] = _Server(python, config, base, env, index)
                    start_server(servers[index])
                    continue
                for msg in msgs:
                    i = msg.get("id")
                    if isinstance(i, int) and 0 <= i < total:
                        finish(i, msg)
            dispatch()
    finally:
        sel.close()
        _stop_all(servers)
    return out


def _stop_all(servers: list[_Server], grace: float = 5.0) -> None:
    """Close every server's input, wait for them to exit (their stdout reaching EOF: no
    polling), kill those still there after `grace` seconds."""
    for server in servers:
        server.close()
    deadline = time.monotonic() + grace
    with selectors.DefaultSelector() as sel:
        for server in servers:
            if server.alive:
                sel.register(server.out_fd, selectors.EVENT_READ, server)
        while sel.get_map():
            left = deadline - time.monotonic()
            events = sel.select(left) if left > 0 else []
            if not events:
                break
            for key, _ in events:
                if not os.read(key.fd, 1 << 16):
                    sel.unregister(key.fd)
    for server in servers:
        server.stop(grace=0.5)


def run_jobs(roots: Sequence[str], jobs: Sequence[tuple[str, str]], python: str | None = None,
             workers: int | None = None, timeout: float | None = DEFAULT_TIMEOUT,
             fork: bool = True, capture: bool = False, progress: Progress | None = None,
             zygotes: bool = True) -> list[tuple[Result, str | None]]:
    """Run every (entry, mode) for real; returns (Result, captured output) in job order."""
    python = resolve_python(python)
    workers = workers or os.cpu_count() or 1
    env = probe_env()
    base = tempfile.mkdtemp(prefix="importsafe-run-")
    roots = [os.path.realpath(r) for r in roots]
    try:
        msgs = None
        if fork and jobs:
            msgs = run_forked(python, roots, list(jobs), workers, timeout, capture, progress,
                              base, env, zygotes)
        if msgs is None:
            msgs = run_fresh(python, roots, list(jobs), workers, timeout, capture, progress,
                             base, env)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return [(to_result(m), m.get("output")) for m in msgs]
