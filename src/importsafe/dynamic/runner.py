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
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from ..model import DEFAULT_TIMEOUT, ErrorInfo, Frame, Report, Result
from ..static.installed import analysed_tops
from . import native, probe
from .copy import copy_tree, originals as _originals

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe.py")
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
    # absolute (probes run in a temporary directory), symlinks kept (a venv's python finds
    # its site-packages through the path it was started by)
    return os.path.abspath(found)


def _end(proc: subprocess.Popen, grace: float = 3.0) -> None:
    """End a probe process and everything it started: SIGTERM lets its guard kill the job and
    the job's descendants (probe.run_guarded); then SIGKILL to its group."""
    if proc.poll() is None:
        try:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=grace)
        except (OSError, subprocess.TimeoutExpired):
            pass
    _kill_group(proc.pid)
    proc.wait()


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


# --- fresh interpreters ------------------------------------------------------------------

class _Stopped(Exception):
    """The run is being abandoned (an interrupt): start nothing more."""


class _Live:
    """The fresh interpreters running now, so that an interrupt can kill them all."""

    def __init__(self):
        self.lock = threading.Lock()
        self.procs: set[subprocess.Popen] = set()
        self.stopped = False

    def start(self, *args, **kwargs) -> subprocess.Popen:
        with self.lock:
            if self.stopped:
                raise _Stopped()
            proc = subprocess.Popen(*args, **kwargs)
            self.procs.add(proc)
            return proc

    def done(self, proc: subprocess.Popen) -> None:
        with self.lock:
            self.procs.discard(proc)

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            procs = list(self.procs)
        for proc in procs:
            if proc.poll() is None:
                try:
                    proc.send_signal(signal.SIGTERM)  # its guard ends the job's descendants
                except OSError:
                    pass
        for proc in procs:
            try:
                proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                _kill_group(proc.pid)


def _run_fresh(python, roots, job_id, entry, mode, timeout, base, env, capture, live,
               lazy_syntax=False, lazy_modules=True) -> dict:
    job_dir = os.path.join(base, f"job{job_id}")
    cwd = os.path.join(job_dir, "cwd")
    os.makedirs(cwd)
    result_path = os.path.join(job_dir, "result.json")
    out_path = os.path.join(job_dir, "output")
    msg: dict = {"entry": entry, "mode": mode}
    with open(out_path, "wb") as out:
        proc = live.start(
            [python, "-B", PROBE, "--result", result_path,
             *(["--lazy-syntax"] if lazy_syntax else []),
             *([] if lazy_modules else ["--no-lazy-modules"]), os.pathsep.join(roots), entry,
             mode],
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, cwd=cwd, env=env,
            start_new_session=True)
        try:
            proc.wait(timeout=timeout or None)
        except subprocess.TimeoutExpired:
            _end(proc)
            msg.update(outcome="timeout", reason=f"still running after {timeout:g}s: killed")
        except BaseException:
            _end(proc)
            raise
        finally:
            live.done(proc)
    if "outcome" not in msg and proc.returncode < 0:  # its guard was killed (by the job?)
        msg.update(outcome="crash", reason=_exit_reason(proc.returncode))
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


def run_fresh(python, roots, jobs, workers, timeout, capture, progress, base, env,
              lazy_syntax=False, lazy_modules=True):
    """One new interpreter per (entry, mode), `workers` at a time."""
    _check_interpreter(python, env)
    total, done, failures = len(jobs), 0, 0
    out: list = [None] * total
    if progress:
        progress(0, total, 0)
    live = _Live()
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = {pool.submit(_run_fresh, python, roots, i, e, m, timeout, base, env, capture,
                               live, lazy_syntax, lazy_modules): i
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
            live.stop()
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
            self.proc.terminate()  # it ends every job's guard first (probe.Node.end_children)
            try:
                self.proc.wait(timeout=probe.GUARD_GRACE + 2)
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


def _installed_tops(roots, tops) -> list[str] | None:
    """The top-level names analysed when a root is an installation directory, else None."""
    found: set[str] = set()
    for root in roots:
        found |= analysed_tops(root, set(tops)) or set()
    return sorted(found) if found else None


class _ForkRun:
    """The scheduler over the fork servers: readiness (zygotes first), routing, closing."""

    def __init__(self, python, roots, jobs, workers, timeout, capture, progress, base, env,
                 zygotes, lazy_syntax=False, lazy_modules=True):
        self.python, self.jobs, self.workers = python, jobs, workers
        self.progress, self.base, self.env = progress, base, env
        tops = sorted({e.partition(".")[0] for e, _ in jobs})
        self.config = {"op": "config", "roots": list(roots), "timeout": timeout or 0,
                       "base": base, "capture": bool(capture), "lazy_syntax": lazy_syntax,
                       "lazy_modules": lazy_modules, "tops": tops,
                       # imported once per server, before any job forks (probe.py)
                       "externals": probe.external_imports(roots, set(tops)) if zygotes
                       else [],
                       # loaded once per server too: libraries with no Python in them
                       "native": native.preloadable(roots, tops) if zygotes else [],
                       # in site-packages, the analysed distribution (other ones installed
                       # there are external dependencies, pre-imported like any other)
                       "internal": _installed_tops(roots, tops)}
        self.plan = _Plan(jobs, zygotes)
        self.names = {e: i for i, (e, m) in enumerate(jobs) if m == "normal"}
        self.out: list = [None] * len(jobs)
        self.done = self.failures = 0
        self.route: dict[int, list[str]] = {}  # job -> zygotes it goes through, from the top
        self.home: dict[int, _Server] = {}  # job -> server it was sent to
        self.live: dict[int, _Server] = {}  # zygote (its job) -> server holding it
        self.ready = [i for i in range(len(jobs)) if i not in self.plan.parent]
        heapq.heapify(self.ready)
        self.servers: list[_Server] = []
        self.sel = selectors.DefaultSelector()

    def start(self, server: _Server) -> bool:
        """Wait for its hello; False if the target cannot fork."""
        hello = server.read_hello()
        _check_version(self.python, ".".join(map(str, hello.get("version", [])[:2])))
        if not hello.get("fork"):
            return False
        if hello.get("platform") == "darwin" and self.plan.parent and not self.route:
            # forking after arbitrary imports is unsafe there: plain forks of the server only
            self.plan = _Plan(self.jobs, False)
            self.ready = list(range(len(self.jobs)))
        server.send(self.config)
        self.sel.register(server.out_fd, selectors.EVENT_READ, server)
        return True

    def _path(self, i: int) -> tuple[list[str], _Server | None]:
        """The zygotes job i goes through, and the server holding them (None: any)."""
        parent = self.plan.parent.get(i)
        if parent is None:
            return [], None
        path = list(self.route.get(parent, []))
        if parent in self.live:
            path.append(self.jobs[parent][0])
        holders = [self.live.get(self.names[z]) for z in path]
        if not path or any(h is None or not h.alive for h in holders):
            return [], None
        return path, holders[0]

    def dispatch(self) -> None:
        inflight = sum(len(s.inflight) for s in self.servers)
        while self.ready and inflight < self.workers:
            alive = [s for s in self.servers if s.alive]
            if not alive:
                return
            i = heapq.heappop(self.ready)
            path, server = self._path(i)
            server = server or min(alive, key=lambda s: len(s.inflight))
            entry, mode = self.jobs[i]
            try:
                server.send({"op": "job", "id": i, "entry": entry, "mode": mode,
                             "zygote": i in self.plan.children, "route": path})
            except OSError:  # it died: its EOF is handled by the loop
                server.alive = False
                heapq.heappush(self.ready, i)
                continue
            self.route[i], self.home[i] = path, server
            server.inflight.add(i)
            inflight += 1

    def _close(self, z: int) -> None:
        server = self.live.pop(z)
        if server.alive:
            try:
                server.send({"op": "close", "route": self.route[z] + [self.jobs[z][0]]})
            except OSError:
                server.alive = False

    def finish(self, i: int, msg: dict) -> None:
        if self.out[i] is not None:
            return
        self.out[i] = msg
        self.home[i].inflight.discard(i)
        self.done += 1
        self.failures += msg.get("outcome") != "ok"
        if msg.get("zygote") and self.home[i].alive:
            self.live[i] = self.home[i]
        for child in self.plan.children.get(i, ()):
            heapq.heappush(self.ready, child)
        for a in self.plan.ancestors(i):
            self.plan.below[a] -= 1
            if self.plan.below[a] == 0 and a in self.live:
                self._close(a)
        if self.progress:
            self.progress(self.done, len(self.jobs), self.failures)

    def _lost(self, server: _Server) -> None:
        """A server died: its jobs crash, its zygotes are gone, a new one takes its place."""
        self.sel.unregister(server.out_fd)
        server.alive = False
        reason = f"probe server died: {server.stderr_tail()}"
        for i in sorted(server.inflight):
            self.finish(i, {"entry": self.jobs[i][0], "mode": self.jobs[i][1],
                            "outcome": "crash", "reason": reason})
        for z in [z for z, s in self.live.items() if s is server]:
            del self.live[z]
        index = self.servers.index(server)
        server.stop(0)
        self.servers[index] = _Server(self.python, self.config, self.base, self.env, index)
        self.start(self.servers[index])

    def run(self) -> list | None:
        total = len(self.jobs)
        nservers = max(1, min(self.workers, total))
        ok = False
        try:
            self.servers.extend(_Server(self.python, self.config, self.base, self.env, k)
                                for k in range(nservers))
            for server in self.servers:
                if not self.start(server):
                    return None
            if self.progress:
                self.progress(0, total, 0)
            self.dispatch()
            while self.done < total:
                for key, _ in self.sel.select():
                    server: _Server = key.data
                    try:
                        msgs = server.lines()
                    except ValueError:
                        msgs = None
                    if msgs is None:
                        self._lost(server)
                        continue
                    for msg in msgs:
                        i = msg.get("id")
                        if isinstance(i, int) and 0 <= i < total:
                            self.finish(i, msg)
                self.dispatch()
            ok = True
        finally:
            self.sel.close()
            _stop_all(self.servers, grace=5.0 if ok else 0.0)
        return self.out


def run_forked(python, roots, jobs, workers, timeout, capture, progress, base, env,
               zygotes=True, lazy_syntax=False, lazy_modules=True):
    """Fork servers; returns outcome dicts in job order, or None if the target cannot fork."""
    return _ForkRun(python, roots, jobs, workers, timeout, capture, progress, base, env,
                    zygotes, lazy_syntax, lazy_modules).run()


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
    if not grace:  # all at once: each ends its jobs' guards first
        for server in servers:
            if server.proc.poll() is None:
                try:
                    server.proc.terminate()
                except OSError:
                    pass
    for server in servers:
        server.stop(grace=0.5 if grace else 0.0)


def link_packages(base: str, package_dirs: Mapping[str, str]) -> str | None:
    """A directory in `base` where each package a setuptools package-dir mapping puts in a
    directory of its own (`{"mypkg" = "."}`) is a symlink named after the package, to put on
    sys.path so that `import mypkg` finds it, as an install would. None when there is none."""
    if not package_dirs:
        return None
    links = os.path.join(os.path.realpath(base), "packages")
    os.mkdir(links)
    for top, directory in sorted(package_dirs.items()):
        try:
            os.symlink(os.path.realpath(directory), os.path.join(links, top),
                       target_is_directory=True)
        except OSError as exc:
            raise ProbeError(f"cannot link package {top} to {directory}: {exc}") from None
    return links


def _unlink_packages(base: str) -> None:
    """Remove the links of link_packages themselves first: nothing may delete through them."""
    links = os.path.join(os.path.realpath(base), "packages")
    if not os.path.isdir(links):
        return
    for name in os.listdir(links):
        path = os.path.join(links, name)
        if os.path.islink(path):
            os.unlink(path)


def _real_files(msg: dict, links: str | None, package_dirs: Mapping[str, str]) -> dict:
    """Files under the package links (in the chain, in the message) -> the files they link
    to: the links are gone once the run ends."""
    error = msg.get("error") if links is not None else None
    if not isinstance(error, dict):
        return msg
    for frame in error.get("chain") or ():
        rel = os.path.relpath(frame.get("file") or "", links)
        top, _, rest = rel.partition(os.sep)
        if top in package_dirs and not rel.startswith(".."):
            frame["file"] = os.path.join(os.path.realpath(package_dirs[top]), rest)
    if isinstance(error.get("message"), str):
        for top, directory in package_dirs.items():
            error["message"] = error["message"].replace(
                os.path.join(links, top) + os.sep, os.path.realpath(directory) + os.sep)
    return msg


def run_jobs(roots: Sequence[str], jobs: Sequence[tuple[str, str]], python: str | None = None,
             workers: int | None = None, timeout: float | None = DEFAULT_TIMEOUT,
             fork: bool = True, capture: bool = False, progress: Progress | None = None,
             zygotes: bool = True, package_dirs: Mapping[str, str] | None = None,
             target_version: Sequence[int] | None = None, copy: bool = False,
             variables: Mapping[str, str] | None = None) -> list[tuple[Result, str | None]]:
    """Run every (entry, mode) for real; returns (Result, captured output) in job order.
    `package_dirs`: top-level packages in directories of their own (see link_packages).
    Mode `lazy` runs PEP 810's global lazy mode (the emulation in lazyemu.py before 3.15);
    a package that writes `lazy import` or `__lazy_modules__` runs under the emulation in
    every mode. `target_version` before 3.15: the emulation ignores `__lazy_modules__`, as
    the static side does (L2); None: it honours it, as 3.15 does. `copy`: the jobs import a
    temporary copy of the analysed packages (copy.py), and the paths reported are the
    originals'. `variables`: environment variables set for the jobs (--env)."""
    python = resolve_python(python)
    workers = workers or os.cpu_count() or 1
    env = probe_env()
    env.update(variables or {})
    with ended_by_signals():
        return _run_jobs(python, roots, jobs, workers, timeout, fork, capture, progress,
                         zygotes, package_dirs, target_version, env, copy)


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived during a run: it is unwound like an interrupt."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextmanager
def ended_by_signals(signums=(signal.SIGTERM, signal.SIGHUP)):
    """While a run goes on, SIGTERM and SIGHUP (what `timeout`, a closed terminal and CI
    cancellation send) unwind it as SIGINT does: every process it started ends and its
    temporary directory is removed; then the signal takes its default course."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set there
        return

    def stop(signum, _frame):
        raise Terminated(signum)
    saved = {}
    for signum in signums:
        try:
            saved[signum] = signal.signal(signum, stop)
        except (OSError, ValueError):
            pass
    try:
        yield
    except Terminated as exc:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
        saved = {}
        if signal.getsignal(exc.signum) in (signal.SIG_DFL, None):
            os.kill(os.getpid(), exc.signum)
        raise
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)


def _run_jobs(python, roots, jobs, workers, timeout, fork, capture, progress, zygotes,
              package_dirs, target_version, env, copy):
    base = tempfile.mkdtemp(prefix="importsafe-run-")
    roots = [os.path.realpath(r) for r in roots]
    package_dirs = dict(package_dirs or {})
    links = None
    copies: dict[str, str] = {}
    try:
        if copy:
            roots, package_dirs, copies = copy_tree(base, roots, package_dirs, jobs)
        links = link_packages(base, package_dirs)
        if links is not None:
            roots = [links] + roots
        lazy_modules = target_version is None or tuple(target_version)[:2] >= (3, 15)
        lazy_syntax = any(m != "lazy" for _, m in jobs) and \
            probe.uses_lazy_syntax(roots, {e.partition(".")[0] for e, _ in jobs})
        msgs = None
        if fork and jobs and os.name == "posix":
            msgs = run_forked(python, roots, list(jobs), workers, timeout, capture, progress,
                              base, env, zygotes, lazy_syntax, lazy_modules)
        if msgs is None:
            msgs = run_fresh(python, roots, list(jobs), workers, timeout, capture, progress,
                             base, env, lazy_syntax, lazy_modules)
        _retry_internal(msgs, python, roots, timeout, base, env, capture, lazy_syntax,
                        lazy_modules)
    finally:
        _unlink_packages(base)
        shutil.rmtree(base, ignore_errors=True)
    return [(to_result(_originals(_real_files(m, links, package_dirs), copies)),
             m.get("output")) for m in msgs]


def _retry_internal(msgs, python, roots, timeout, base, env, capture, lazy_syntax,
                    lazy_modules) -> None:
    """A job the probe itself failed to run (not the module's outcome) runs again, once, in a
    fresh interpreter; if that fails too, its reason says it was importsafe's failure."""
    live = _Live()
    for i, msg in enumerate(msgs):
        if not msg.get("internal"):
            continue
        again = _run_fresh(python, roots, f"{i}-again", msg["entry"], msg["mode"], timeout,
                           base, env, capture, live, lazy_syntax, lazy_modules)
        if again.get("internal"):
            again["reason"] = ("importsafe could not run this import (an internal error, not "
                               f"the module's outcome): {again.get('reason')}")
        msgs[i] = again
