"""Run first imports for real and describe their outcome as JSON.

Stdlib only and Python 3.8+ syntax: this file runs inside the *target* interpreter, never
inside importsafe's own process. It never imports the target package in the parent; each
(entry, mode) runs in a forked child (or, with --no-fork, in this process, which must be a
fresh interpreter).

Usage:
    python probe.py --batch            # stdin: {"roots": [...], "jobs": [[entry, mode], ...],
                                       #         "timeout": seconds, "fork": true,
                                       #         "lazy_syntax": b (default: scan the sources),
                                       #         "lazy_modules": b (default true)}
                                       # stdout: one JSON outcome per line, in job order
    python probe.py --serve            # the fork server of importsafe's runner (see serve())
    python probe.py [--result FILE] [--lazy-syntax] [--no-lazy-modules] ROOTS ENTRY MODE
                                       # one job in this fresh interpreter (--no-fork); the
                                       # outcome goes to FILE (else stdout)

Mode `lazy` runs PEP 810's global lazy mode: natively on 3.15+, else under the emulation in
lazyemu.py; `lazy_syntax` (--lazy-syntax, "lazy_syntax" in the batch request and the server
config) says the package writes `lazy import` or `__lazy_modules__`, so that pre-3.15
interpreters run its normal and bare jobs under the emulation too; `lazy_modules` false
(--no-lazy-modules) makes the emulation ignore `__lazy_modules__`, as a target version
before 3.15 does.
"""

import importlib
import importlib.machinery
import importlib.util
import faulthandler
import gc
import json
import os
import re
import select
import shutil
import signal
import stat
import sys
import time
import traceback
import types

# The imported code may patch the stdlib (`json.dumps = ...`): what reports its outcome uses
# references taken here, before any of it runs.
_dumps = json.JSONEncoder().encode
_loads = json.JSONDecoder().decode
_write = os.write
_exit = os._exit
_os_open, _rename = os.open, os.rename
_listdir = os.listdir
_realpath, _abspath = os.path.realpath, os.path.abspath
_walk_tb = traceback.walk_tb

_NAME_RE = re.compile(r"cannot import name '([^']*)'")
_ATTR_RE = re.compile(r"module '([^']*)'(?: from '[^']*')? has no attribute '([^']*)'")
_SUBMOD_RE = re.compile(r"cannot access submodule '([^']*)' of module '([^']*)'")
_NAMEERR_RE = re.compile(r"name '([^']*)' is not defined")


def _under(path, roots):
    # the path as imported counts too: a root may hold a symlink to a package elsewhere (the
    # runner links packages a setuptools package-dir mapping puts in directories of their own)
    paths = {_realpath(path or ""), _abspath(path or "")}
    return any(p == r or p.startswith(r + os.sep) for p in paths for r in roots)


def _chain(tb, roots):
    chain = []
    for frame, lineno in _walk_tb(tb):
        code = frame.f_code
        if code.co_name != "<module>" or not _under(code.co_filename, roots):
            continue
        chain.append({
            "module": frame.f_globals.get("__name__"),
            "file": code.co_filename,
            "line": lineno,
        })
    return chain


def _last_user_globals(tb):
    last = None
    for frame, _ in _walk_tb(tb):
        last = frame
    return last.f_globals if last is not None else {}


def describe(exc, tb, roots):
    """Return the error dict for an exception escaping `import entry`."""
    try:
        message = str(exc)
    except BaseException:  # noqa: B902 - a broken __str__ must not lose the outcome
        message = "<unprintable %s>" % type(exc).__name__
    module = name = None
    if isinstance(exc, ModuleNotFoundError):
        module = exc.name
    elif isinstance(exc, ImportError):
        module = exc.name
        name = getattr(exc, "name_from", None)
        if name is None:
            found = _NAME_RE.search(message)
            name = found.group(1) if found else None
    elif isinstance(exc, AttributeError):
        obj = getattr(exc, "obj", None)
        name = getattr(exc, "name", None)
        if isinstance(obj, types.ModuleType):
            module = obj.__name__
        found = _SUBMOD_RE.search(message)
        if found:
            name, module = name or found.group(1), module or found.group(2)
        found = _ATTR_RE.search(message)
        if found:
            module, name = module or found.group(1), name or found.group(2)
    elif isinstance(exc, NameError):
        name = getattr(exc, "name", None)
        if name is None:
            found = _NAMEERR_RE.search(message)
            name = found.group(1) if found else None
        module = _last_user_globals(tb).get("__name__")
    return {
        "exception": type(exc).__name__,
        "module": module,
        "name": name,
        "message": message,
        "chain": _chain(tb, roots),
    }


def _find_spec(name, parent_path):
    return importlib.machinery.PathFinder.find_spec(name, parent_path)


def setup_bare(entry):
    """Put every regular-package ancestor of `entry` into sys.modules without running it."""
    parts = entry.split(".")
    parent = None
    for i in range(1, len(parts)):
        name = ".".join(parts[:i])
        parent_path = parent.__path__ if parent is not None else None
        spec = _find_spec(name, parent_path)
        if spec is None:
            return  # let the real import report what is missing
        is_regular = spec.origin is not None and spec.loader is not None and \
            spec.submodule_search_locations is not None and \
            os.path.basename(spec.origin).startswith("__init__.")
        if is_regular:
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            if parent is not None:
                setattr(parent, parts[i - 1], module)
        else:
            module = importlib.import_module(name)
        parent = module


LAZYEMU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lazyemu.py")
LAZYEMU_NAME = "_importsafe_lazyemu"
_lazyemu = []  # the emulation module, once loaded


def install_lazy(real_roots, global_mode, lazy_modules=True):
    """Load lazyemu.py by path (importsafe itself is not importable here) and install the PEP
    810 emulation for the package (global_mode "all" or "normal"). Runs before sys.path gets
    the roots: nothing the emulation imports can come from the package."""
    load_lazy().install(real_roots, global_mode, lazy_modules)


def load_lazy():
    """The emulation module, loaded once (a parent that loads it before forking spares each
    child the load: only stdlib modules come with it)."""
    if not _lazyemu:
        spec = importlib.util.spec_from_file_location(LAZYEMU_NAME, LAZYEMU)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _lazyemu.append(module)
    return _lazyemu[0]


def lazy_plan(mode, lazy_syntax):
    """How `mode` runs here: "native-all" (3.15+: -X lazy_imports=all), "all" / "normal" (the
    emulation with that global mode), or None (plain imports). Normal and bare runs need the
    emulation when the package writes `lazy import` or `__lazy_modules__` (lazy_syntax)."""
    if mode == "lazy":
        return "native-all" if sys.version_info >= (3, 15) else "all"
    if lazy_syntax and sys.version_info < (3, 15):
        return "normal"
    return None


def _emulated(mode, lazy_syntax):
    return lazy_plan(mode, lazy_syntax) in ("all", "normal")


_LAZY_SYNTAX = re.compile(rb"^[ \t]*lazy[ \t]+(?:import|from)\b|__lazy_modules__", re.M)


def package_files(roots, tops, wanted):
    """Paths of the files whose name `wanted` accepts in the directories of the top-level
    packages `tops` under `roots` (symlinked directories followed once)."""
    seen = set()
    for root in roots:
        for top in sorted(tops):
            for dirpath, dirnames, filenames in os.walk(os.path.join(root, top),
                                                        followlinks=True):
                real = os.path.realpath(dirpath)
                if real in seen:
                    dirnames[:] = []
                    continue
                seen.add(real)
                dirnames[:] = [d for d in dirnames if d != "__pycache__" and d[:1] != "."]
                for name in sorted(filenames):
                    if wanted(name):
                        yield os.path.join(dirpath, name)


def _package_sources(roots, tops):
    """The bytes of every .py file of the top-level packages or modules `tops` under `roots`
    (unreadable files skipped)."""
    paths = [os.path.join(root, top + ".py") for root in roots for top in sorted(tops)]
    paths.extend(package_files(roots, tops, lambda name: name.endswith(".py")))
    for path in paths:
        data = read_source(path)
        if data is not None:
            yield data


MAX_SOURCE = 64 << 20  # bytes, as the static side's limit (static/files.py)


def read_source(path, limit=MAX_SOURCE):
    """The bytes of a regular file of at most `limit` bytes, else None: a FIFO must not block
    the scan, nor a link to /dev/zero fill the memory."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)


def uses_lazy_syntax(roots, tops):
    """Whether a source file of the top-level packages or modules `tops` under `roots` writes
    `lazy import` / `lazy from` (PEP 810) or names `__lazy_modules__` (the runner asks, the
    batch mode too when its request does not say)."""
    return any(b"lazy" in data and _LAZY_SYNTAX.search(data)
               for data in _package_sources(roots, tops))


_TOP_IMPORT = re.compile(rb"^(?:import[ \t]+([\w. \t,]+?)[ \t]*(?:#[^\n]*)?$"
                         rb"|from[ \t]+(\w[\w.]*)[ \t]+import\b)", re.M)


def external_imports(roots, tops, limit=500):
    """The modules the package's files import at column 0 (module level, unguarded: not in
    `try`, `if` or a function), other than the package's own top-level names and
    `__future__`: what the fork server imports once, before forking any job."""
    found = {}
    for data in _package_sources(roots, tops):
        for names, source in _TOP_IMPORT.findall(data):
            for item in (names.split(b",") if names else [source]):
                name = item.split()[0].decode("ascii", "replace") if item.split() else ""
                head = name.partition(".")[0]
                if name and head not in tops and head != "__future__":
                    found[name] = found.get(name, 0) + 1
    return sorted(found, key=lambda n: (-found[n], n))[:limit]


EXTERNALS = "\0externals"  # the key of the zygote that imported the external dependencies


def _harmless(name, tops):
    """Import `name` in a throwaway fork: does that leave this process as it can fork from
    (one thread, no module of the package loaded)? One dependency that starts a thread then
    costs only itself, not the whole pre-import."""
    pid = os.fork()
    if pid == 0:
        code = 2
        try:
            importlib.import_module(name)
            clean = not any(m.partition(".")[0] in tops for m in sys.modules)
            code = 0 if clean and _thread_count() == 1 else 1
        finally:
            _exit(code)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def _preload_native(paths):
    """Load the package's shared libraries that name no Python C-API symbol (runner side:
    native.py), as its extension modules' own loading would, minus the Python part: they
    cannot run Python code, so no import can tell they came early."""
    if not paths:
        return
    import ctypes  # only here: a run without native libraries never imports it

    for path in paths:
        try:
            ctypes.CDLL(path, mode=getattr(os, "RTLD_LOCAL", 0))
        except OSError:
            pass  # the job's own import will meet the same problem and report it


def _import_externals(config):
    """In a forked child of the server: import the package's external dependencies (none of
    them may load a module of the package, start a thread or come from the package's roots),
    and say whether this process can serve as the zygote every job forks from."""
    roots = config["roots"]
    real_roots = [os.path.realpath(r) for r in roots]
    tops = set(config.get("tops") or ())
    internal = set(config.get("internal") or ())  # site-packages: the analysed distribution
    sys.path[:] = list(roots) + [p for p in sys.path if p not in roots]
    devnull = os.open(os.devnull, os.O_RDWR)
    saved = os.dup(1), os.dup(2)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    imported = 0
    try:
        for name in config.get("externals") or ():
            try:
                spec = importlib.util.find_spec(name.partition(".")[0])
            except BaseException:  # noqa: B902 - whatever finding it does
                continue
            places = [getattr(spec, "origin", None)] + list(
                getattr(spec, "submodule_search_locations", None) or ()) if spec else []
            if spec is None or (name.partition(".")[0] in internal if internal else any(
                    _under(p, real_roots) for p in places if p)):
                continue  # missing, or analysed code (under the roots): never pre-imported
            if name not in sys.modules and not _harmless(name, tops | internal):
                continue  # starts a thread (numpy's OpenBLAS) or imports the package: left out
            try:
                importlib.import_module(name)
                imported += 1
            except BaseException:  # noqa: B902 - a dependency that fails: the jobs will see
                pass
        _preload_native(config.get("native") or ())
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (devnull,) + saved:
            os.close(fd)
    loaded = sorted(m for m in sys.modules if m.partition(".")[0] in tops | internal)
    if loaded:
        return "importing them loaded %s" % ", ".join(loaded[:5])
    if _thread_count() != 1:
        return "importing them started threads"
    return imported


def run_one(roots, entry, mode, check_loaded=True, lazy_syntax=False, lazy_modules=True):
    """Import `entry` in this (fresh) process and return the outcome dict. In a zygote (a
    fork of a process that already imported an ancestor package of `entry` in normal mode)
    `check_loaded` is off: the package is meant to be loaded already. `lazy_syntax`: the
    package uses PEP 810 syntax (see lazy_plan); `lazy_modules` False: the emulation ignores
    `__lazy_modules__` (a target version before 3.15)."""
    real_roots = [os.path.realpath(r) for r in roots]
    lazy = lazy_plan(mode, lazy_syntax)
    if lazy in ("all", "normal"):
        try:
            install_lazy(real_roots, lazy, lazy_modules)
        except Exception as exc:  # noqa: B902 - a broken emulation is a crash, not an outcome
            return {"entry": entry, "mode": mode, "outcome": "crash",
                    "reason": "lazy import emulation failed: %r" % (exc,)}
    sys.path[:] = list(roots) + [p for p in sys.path if p not in roots]
    top = entry.split(".")[0]
    loaded = check_loaded and sorted(m for m in sys.modules if m == top or m.startswith(top + "."))
    result = {"entry": entry, "mode": mode}
    if loaded:
        result.update(outcome="crash",
                      reason="already loaded before the entry: " + ", ".join(loaded))
        return result
    try:
        if mode == "bare":
            setup_bare(entry)
        if lazy == "native-all":
            sys.set_lazy_imports("all")  # the entry itself stays eager (import_module)
        importlib.import_module(entry)
    except BaseException as exc:  # noqa: B902 - everything that escapes is the outcome
        tb = exc.__traceback__
        result.update(outcome="error", error=describe(exc, tb, real_roots))
        return result
    result["outcome"] = "ok"
    return result


def _child(roots, entry, mode, write_fd, timeout, lazy_syntax=False, lazy_modules=True):
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    if timeout:
        signal.alarm(int(max(1, timeout)))
    try:
        result = run_one(roots, entry, mode, lazy_syntax=lazy_syntax, lazy_modules=lazy_modules)
        data = _dumps(result).encode()
    except BaseException as exc:  # noqa: B902
        data = _dumps({"entry": entry, "mode": mode, "outcome": "crash",
                           "reason": "probe failed: %r" % (exc,)}).encode()
    with os.fdopen(write_fd, "wb") as out:
        out.write(data)
    _exit(0)


def run_forked(roots, entry, mode, timeout, lazy_syntax=False, lazy_modules=True):
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(roots, entry, mode, write_fd, timeout, lazy_syntax, lazy_modules)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as src:
        data = src.read()
    _, status = os.waitpid(pid, 0)
    if data:
        return _loads(data.decode())
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM:
        return {"entry": entry, "mode": mode, "outcome": "timeout"}
    reason = "signal %d" % os.WTERMSIG(status) if os.WIFSIGNALED(status) \
        else "exit code %d" % os.WEXITSTATUS(status)
    return {"entry": entry, "mode": mode, "outcome": "crash", "reason": reason}


# --- containment -------------------------------------------------------------------------
#
# Every job runs in a child of a guard process of its own, never of a node: a module doing
# os.kill(os.getppid(), 9) kills its guard (and, through PR_SET_PDEATHSIG, itself), not the
# server, a zygote or importsafe. The guard is a child subreaper (PR_SET_CHILD_SUBREAPER):
# whatever the job forks, setsid grandchildren included, is reparented to it once its parent
# ends, and killed when the job ends. Linux only; elsewhere process groups alone.

PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36
_libc = []


def _prctl(option, value):
    """prctl(2) through ctypes; False where it cannot be called."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        if not _libc:
            import ctypes
            _libc.append(ctypes.CDLL(None, use_errno=True))
        return _libc[0].prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(sig, parent):
    """Get `sig` when the parent ends; end now if it already has (the race prctl leaves)."""
    _prctl(PR_SET_PDEATHSIG, sig)
    if os.getppid() != parent:
        _exit(1)


class _Stop(Exception):
    """The guard was asked to end its job."""


def _stop(*_):
    raise _Stop()


def _children():
    """The pids of this process's children (Linux /proc), or [] where that cannot be read."""
    me = os.getpid()
    try:
        with open("/proc/%d/task/%d/children" % (me, me)) as f:
            return [int(p) for p in f.read().split()]
    except (OSError, ValueError):
        pass
    found = []
    try:
        names = _listdir("/proc")
    except OSError:
        return found
    for name in names:
        if name.isdigit():
            try:
                with open("/proc/%s/stat" % name) as f:
                    if int(f.read().rpartition(")")[2].split()[1]) == me:
                        found.append(int(name))
            except (OSError, ValueError, IndexError):
                continue
    return found


def kill_descendants():
    """SIGKILL every child, and every process reparented to this one as they die, until
    none is left (a subreaper inherits them all)."""
    while True:
        kids = _children()
        for pid in kids:
            _kill(pid, signal.SIGKILL)
        try:
            if kids:
                os.waitpid(-1, 0)
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return
        except OSError:
            return
        if not kids and not _children():
            try:
                os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            time.sleep(0.01)


def run_guarded(job_main):
    """Fork the job (`job_main()`, which must end with _exit) and become its guard: wait for
    it, kill what it leaves behind, then end as it ended. SIGTERM (or the end of this
    process's parent) ends the job and everything it started. Never returns."""
    me = os.getpid()
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGTERM, _stop)
    pid = os.fork()
    if pid == 0:
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            die_with_parent(signal.SIGKILL, me)
            os.setpgid(0, 0)  # the job's own group: what it signals stays in it
            job_main()
        finally:
            _exit(70)
    status = None
    try:
        while status is None:
            done, st = os.waitpid(-1, 0)
            if done == pid:
                status = st
    except (_Stop, ChildProcessError, OSError):
        pass
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _killpg(pid, signal.SIGKILL)
    kill_descendants()
    if status is not None and os.WIFEXITED(status):
        _exit(os.WEXITSTATUS(status))
    sig = os.WTERMSIG(status) if status is not None else signal.SIGKILL
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file of the guard's own
    except (ImportError, ValueError, OSError):
        pass
    signal.signal(sig, signal.SIG_DFL)
    os.kill(me, sig)  # end as the job did, so that its parent reads the same status
    _exit(128 + sig)


# --- fork server (--serve) -------------------------------------------------------------
#
# The runner starts one server per worker and talks to it in JSON lines:
#   server -> runner  {"hello": 1, "version": [3, 8, 18], "fork": true}
#   runner -> server  {"op": "config", "roots": [...], "timeout": s, "base": dir, "capture": b,
#                      "lazy_syntax": b, "lazy_modules": b}
#   runner -> server  {"op": "job", "id": n, "entry": e, "mode": m, "zygote": b, "route": [...]}
#   runner -> server  {"op": "close", "route": [pkg, ..., zygote]}
#   server -> runner  {"id": n, "entry": e, "mode": m, "outcome": ..., ["zygote": true]}
# Every job runs in a child forked from a process that has not imported its package (the
# server: a "node"), in its own process group, its own temporary working directory, with
# stdin on /dev/null and stdout/stderr in a file. The node kills it at the timeout.
# Zygotes: a `normal` job marked "zygote" whose import succeeds (and started no thread) does
# not exit: it reports, then becomes a node itself, forking the jobs routed to it (entries
# below its package, in `normal` mode). Its state is what a fresh `import sub.module` sees once
# the package's __init__ has run, so the outcome is the same, minus the repeated __init__.

MAX_OUTPUT = 65536
GUARD_GRACE = 2.0  # seconds a guard has to end its job before it is killed itself


def _noop(*_):
    pass


def _terminate(*_):
    raise SystemExit(1)


def _signame(num):
    try:
        return signal.Signals(num).name
    except ValueError:
        return "signal %d" % num


def status_reason(status):
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return "killed by signal %d (%s)" % (sig, _signame(sig))
    if os.WIFEXITED(status):
        return "exited with code %d without reporting an outcome" % os.WEXITSTATUS(status)
    return "ended with wait status %d" % status


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[_write(fd, view):]


def _line(msg):
    return (_dumps(msg) + "\n").encode()


def read_tail(path, limit=MAX_OUTPUT):
    """The last `limit` bytes of a captured output file, as text (None if unreadable)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - limit))
            data = f.read()
    except OSError:
        return None
    text = data.decode("utf-8", "replace")
    if size > limit:
        text = "[... %d bytes cut ...]\n" % (size - limit) + text
    return text


def _thread_count():
    try:
        return len(_listdir("/proc/self/task"))
    except OSError:
        threading = sys.modules.get("threading")
        return threading.active_count() if threading is not None else 1


def _flush_std():
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except BaseException:  # noqa: B902 - the imported code may have replaced them
            pass


def _nonblocking(fd):
    os.set_blocking(fd, False)
    return fd


def enter_job(base, job_id):
    """Inside a new job process: private cwd, output to a file, no bytecode. Returns its dir."""
    job_dir = os.path.join(base, "job%s" % job_id)
    cwd = os.path.join(job_dir, "cwd")
    os.makedirs(cwd, exist_ok=True)
    os.chdir(cwd)
    out = os.open(os.path.join(job_dir, "output"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.close(null)
    os.close(out)
    sys.dont_write_bytecode = True
    os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    faulthandler.enable()  # a fatal signal leaves its traceback in the output file
    return job_dir


class _Child(object):
    """A forked job process; once its import succeeds it may live on as a zygote."""

    def __init__(self, job, pid, fd, zin, deadline, job_dir):
        self.job, self.pid, self.fd, self.zin = job, pid, fd, zin
        self.deadline, self.job_dir = deadline, job_dir
        self.buf = b""
        self.reported = False
        self.timed_out = False
        self.zygote = None  # the package name, once this child serves as a zygote
        self.held = None  # its outcome, sent on once its guard has ended
        self.pending = {}  # id -> job forwarded to this zygote and not answered yet


def _finished(name):
    """Whether module `name` is in sys.modules and done running (not mid-import)."""
    module = sys.modules.get(name)
    spec = getattr(module, "__spec__", None) if module is not None else None
    return isinstance(module, types.ModuleType) and not getattr(spec, "_initializing", False)


class Node(object):
    """The event loop of the server and of every zygote: read jobs, fork, reap, report."""

    def __init__(self, config, in_fd, out_fd, prefix):
        self.config = config
        self.in_fd, self.out_fd = in_fd, out_fd
        self.prefix = prefix  # the package this process imported (None: nothing imported)
        self.inbuf = b""
        self.eof = False
        self.children = {}  # pid -> _Child
        self.zygotes = {}  # package -> _Child
        self.wake_r, self.wake_w = os.pipe()
        _nonblocking(self.wake_r)
        _nonblocking(self.wake_w)
        signal.signal(signal.SIGCHLD, _noop)
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGTERM, _terminate)

    # -- plumbing ------------------------------------------------------------------------
    def _send(self, msg):
        _write_all(self.out_fd, _line(msg))

    def _forget(self):
        """In a new child: drop every descriptor and handler of this node."""
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        fds = [self.in_fd, self.out_fd, self.wake_r, self.wake_w]
        for child in self.children.values():
            fds.extend((child.fd, child.zin))
        for fd in fds:
            if fd is not None and fd > 2:
                try:
                    os.close(fd)
                except OSError:
                    pass

    # -- jobs ----------------------------------------------------------------------------
    def start_externals(self):
        """The server's first child imports the external dependencies, then every job forks
        from it (a zygote above the package zygotes); until it answers, jobs wait."""
        self.waiting = []
        self._fork({"id": -1, "entry": EXTERNALS, "mode": "externals", "zygote": True})

    def start(self, job):
        if self.prefix is None and getattr(self, "waiting", None) is not None:
            self.waiting.append(job)
            return
        route = job.get("route") or []
        if self.prefix is None and EXTERNALS in self.zygotes:
            route = [EXTERNALS] + route
            job = dict(job, route=route)
        if route:
            zygote = self.zygotes.get(route[0])
            if zygote is not None and zygote.zin is not None:
                try:
                    _write_all(zygote.zin, _line(dict(job, route=route[1:])))
                    zygote.pending[job["id"]] = job
                    return
                except OSError:
                    pass
            # the zygote is gone: this node has imported an ancestor too, as good a start
            job = dict(job, route=[])
        if self.prefix is not None and job["mode"] == "normal" and not job.get("zygote") \
                and _finished(job["entry"]):
            # Importing the packages above the entry (this zygote's state) already ran it to
            # completion: a first import would find it in sys.modules and do nothing. `ok`
            # at once, no child (the job of a would-be zygote still forks, to become one).
            self._send({"id": job["id"], "entry": job["entry"], "mode": job["mode"],
                        "outcome": "ok"})
            return
        self._fork(job)

    def _fork(self, job):
        read_fd, write_fd = os.pipe()
        zin_r = zin_w = None
        if job.get("zygote") and job["mode"] in ("normal", "externals"):
            zin_r, zin_w = os.pipe()
        job_dir = os.path.join(self.config["base"], "job%s" % job["id"])
        _rmtree(job_dir)  # a job forked again (its zygote died) starts clean
        node = os.getpid()
        pid = os.fork()
        if pid == 0:  # the job's guard (run_guarded); the job is its child
            try:
                os.close(read_fd)
                if zin_w is not None:
                    os.close(zin_w)
                self._forget()
                os.setpgid(0, 0)
                die_with_parent(signal.SIGTERM, node)
                run_guarded(lambda: self._job_process(job, write_fd, zin_r))
            finally:
                _exit(70)
        os.close(write_fd)
        if zin_r is not None:
            os.close(zin_r)
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass
        timeout = self.config.get("timeout") or 0
        deadline = time.monotonic() + timeout if timeout else None
        self.children[pid] = _Child(job, pid, _nonblocking(read_fd), zin_w, deadline, job_dir)

    def _job_process(self, job, write_fd, zin_r):
        """The job itself, in the guard's child; reports once, then ends (or serves)."""
        written = [False]
        try:
            self._child_main(job, write_fd, zin_r, written)
        except BaseException as exc:  # noqa: B902
            if not written[0]:
                try:  # importsafe's own failure, not the module's outcome: the runner retries
                    _write_all(write_fd, _line({
                        "id": job["id"], "entry": job["entry"], "mode": job["mode"],
                        "outcome": "crash", "internal": True,
                        "reason": "probe failed: %r" % (exc,)}))
                except BaseException:  # noqa: B902
                    pass
        finally:
            _exit(0)

    def _child_main(self, job, write_fd, zin_r, written):
        enter_job(self.config["base"], job["id"])
        if job["mode"] == "externals":
            answer = _import_externals(self.config)
            ok = not isinstance(answer, str)
            _write_all(write_fd, _line({"id": -1, "outcome": "ok" if ok else "refused",
                                        "zygote": ok, "imported": answer if ok else 0,
                                        "reason": None if ok else answer}))
            written[0] = True
            if ok:
                gc.freeze()
                Node(self.config, zin_r, write_fd, EXTERNALS).loop()
            return
        timeout = self.config.get("timeout") or 0
        if timeout:
            signal.alarm(int(timeout) + 10)  # backstop, should this server die first
        result = run_one(self.config["roots"], job["entry"], job["mode"],
                         check_loaded=self.prefix in (None, EXTERNALS),
                         lazy_syntax=self.config.get("lazy_syntax", False),
                         lazy_modules=self.config.get("lazy_modules", True))
        signal.alarm(0)
        _flush_std()
        result["id"] = job["id"]
        become = zin_r is not None and result["outcome"] == "ok" and _thread_count() == 1
        if become:
            result["zygote"] = True
        _write_all(write_fd, _line(result))
        written[0] = True
        if become:
            # what the zygote holds now is shared by every child it forks: out of the cyclic
            # collector's sight, a child's collections do not touch (and copy) those pages
            gc.freeze()
            Node(self.config, zin_r, write_fd, job["entry"]).loop()

    def close(self, route):
        if not route:
            return
        if self.prefix is None and EXTERNALS in self.zygotes and route[0] != EXTERNALS:
            route = [EXTERNALS] + route
        zygote = self.zygotes.get(route[0])
        if zygote is None or zygote.zin is None:
            return
        if len(route) > 1:
            try:
                _write_all(zygote.zin, _line({"op": "close", "route": route[1:]}))
            except OSError:
                pass
        else:
            os.close(zygote.zin)
            zygote.zin = None

    # -- results -------------------------------------------------------------------------
    def _report(self, child, msg):
        """The child's own job ended (msg is its outcome): attach output, send it up."""
        child.reported = True
        if self.config.get("capture"):
            output = read_tail(os.path.join(child.job_dir, "output"))
            if output:
                msg["output"] = output
        self._send(msg)
        if msg.get("zygote"):
            child.zygote = child.job["entry"]
            self.zygotes[child.zygote] = child
        else:
            _rmtree(child.job_dir)

    def _on_line(self, child, line):
        try:
            msg = _loads(line.decode())
        except ValueError:
            return
        if not child.reported and msg.get("id") == child.job["id"]:
            if child.job["id"] == -1:  # the externals zygote's own answer: not a job's
                child.reported = True
                if msg.get("zygote"):
                    child.zygote = EXTERNALS
                    self.zygotes[EXTERNALS] = child
                self._release()
                return
            if msg.get("zygote"):
                self._report(child, msg)
            else:  # held until its guard ends: a job that killed its guard is a crash
                child.reported, child.held = True, msg
            return
        child.pending.pop(msg.get("id"), None)
        self._send(msg)

    def _drain(self, child):
        while child.fd is not None:
            try:
                data = os.read(child.fd, 65536)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                os.close(child.fd)
                child.fd = None
                return
            child.buf += data
            while b"\n" in child.buf:
                line, child.buf = child.buf.split(b"\n", 1)
                self._on_line(child, line)

    def _reap(self):
        for pid in list(self.children):
            child = self.children[pid]
            try:
                done, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done, status = pid, 0
            if not done:
                continue
            self._drain(child)
            for fd in (child.fd, child.zin):
                if fd is not None:
                    os.close(fd)
            child.fd = child.zin = None
            del self.children[pid]
            if child.zygote is not None:
                self.zygotes.pop(child.zygote, None)
                _rmtree(child.job_dir)
                for job in list(child.pending.values()):  # a zygote died with work queued
                    self.start(dict(job, route=[]))
                continue
            if not child.reported and child.job["id"] == -1:
                self._release()  # the externals zygote died before answering: fork directly
                continue
            if os.WIFSIGNALED(status) and not child.timed_out:
                self._sweep_strangers()  # the job may have killed its guard: its orphans
                child.held = None
            if child.held is not None:
                self._report(child, child.held)
                continue
            job = child.job
            msg = {"id": job["id"], "entry": job["entry"], "mode": job["mode"]}
            if child.timed_out:
                msg.update(outcome="timeout", reason="still running after %gs: killed"
                           % self.config["timeout"])
            else:
                msg.update(outcome="crash", reason=status_reason(status))
            self._report(child, msg)

    def _release(self):
        waiting, self.waiting = getattr(self, "waiting", None) or [], None
        for job in waiting:
            self.start(job)

    def _expire(self):
        now = time.monotonic()
        for child in self.children.values():
            if not child.reported and not child.timed_out and child.deadline is not None \
                    and now >= child.deadline:
                child.timed_out = True
                child.deadline = now + GUARD_GRACE
                _kill(child.pid, signal.SIGTERM)  # the guard ends the job and all it started
            elif child.timed_out and child.deadline is not None and now >= child.deadline:
                child.deadline = None
                _killpg(child.pid, signal.SIGKILL)  # a guard that did not end in time

    def _next_deadline(self):
        deadlines = [c.deadline for c in self.children.values()
                     if (c.timed_out or not c.reported) and c.deadline is not None]
        return max(0.0, min(deadlines) - time.monotonic()) if deadlines else None

    def _sweep_strangers(self):
        """Kill and reap the processes reparented to this subreaper (left by a job whose
        guard was killed): only the guards are this node's own children."""
        for pid in _children():
            if pid not in self.children:
                _kill(pid, signal.SIGKILL)
                try:
                    os.waitpid(pid, 0)
                except OSError:
                    pass

    def _read_input(self):
        try:
            data = os.read(self.in_fd, 65536)
        except OSError:
            data = b""
        if not data:
            self.eof = True
            os.close(self.in_fd)
            for zygote in self.zygotes.values():
                if zygote.zin is not None:
                    os.close(zygote.zin)
                    zygote.zin = None
            return
        self.inbuf += data
        self.handle_lines()

    def handle_lines(self):
        while b"\n" in self.inbuf:
            line, self.inbuf = self.inbuf.split(b"\n", 1)
            if not line.strip():
                continue
            msg = _loads(line.decode())
            if msg.get("op") == "close":
                self.close(msg.get("route") or [])
            else:
                self.start(msg)

    def loop(self):
        try:
            while not (self.eof and not self.children):
                fds = [self.wake_r] + ([] if self.eof else [self.in_fd]) + \
                    [c.fd for c in self.children.values() if c.fd is not None]
                ready = select.select(fds, [], [], self._next_deadline())[0]
                for fd in ready:
                    if fd == self.wake_r:
                        try:
                            while os.read(self.wake_r, 4096):
                                pass
                        except OSError:
                            pass
                    elif fd == self.in_fd:
                        self._read_input()
                    else:
                        for child in list(self.children.values()):
                            if child.fd == fd:
                                self._drain(child)
                self._reap()
                self._expire()
        finally:
            self.end_children()

    def end_children(self):
        """Ask every guard to end its job (and all it started), wait a little for them, kill
        the rest: nothing started here outlives this node."""
        for child in self.children.values():
            _kill(child.pid, signal.SIGTERM)
        deadline = time.monotonic() + GUARD_GRACE
        for pid in list(self.children):
            while True:
                try:
                    done, _ = os.waitpid(pid, os.WNOHANG)
                except OSError:
                    break
                if done:
                    break
                if time.monotonic() >= deadline:
                    _killpg(pid, signal.SIGKILL)
                    try:
                        os.waitpid(pid, 0)
                    except OSError:
                        pass
                    break
                time.sleep(0.005)
        self.children.clear()
        self._sweep_strangers()


def _kill(pid, sig):
    try:
        os.kill(pid, sig)
    except OSError:
        pass


def _killpg(pid, sig):
    try:
        os.killpg(pid, sig)
    except OSError:
        _kill(pid, sig)


def _rmtree(path):
    shutil.rmtree(path, ignore_errors=True)


def _read_line(fd, buf):
    while b"\n" not in buf:
        data = os.read(fd, 65536)
        if not data:
            raise SystemExit(0)
        buf += data
    line, rest = buf.split(b"\n", 1)
    return _loads(line.decode()), rest


def serve():
    parent = os.getppid()
    in_fd, out_fd = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)  # a stray print must never corrupt the protocol
    fork = hasattr(os, "fork")
    _write_all(out_fd, _line({"hello": 1, "version": list(sys.version_info[:3]),
                              "implementation": sys.implementation.name, "fork": fork,
                              "platform": sys.platform}))
    config, rest = _read_line(in_fd, b"")
    config["roots"] = [os.path.abspath(r) for r in config["roots"]]
    sys.dont_write_bytecode = True
    if not fork:
        return 2
    # orphans of a job whose guard died come here, to be killed (Node._sweep_strangers);
    # and this server ends (killing its jobs) when importsafe does, however it ends
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    die_with_parent(signal.SIGTERM, parent)
    node = Node(config, in_fd, out_fd, None)
    if config.get("externals") or config.get("native"):
        node.start_externals()
    node.inbuf = rest
    node.handle_lines()
    node.loop()
    return 0


def main(argv):
    if os.path.dirname(os.path.abspath(__file__)) in [os.path.abspath(p) for p in sys.path[:1]]:
        del sys.path[0]  # never let the target see importsafe's own files
    if argv[1:2] == ["--serve"]:
        return serve()
    if argv[1:2] == ["--batch"]:
        request = _loads(sys.stdin.read())
        roots = [os.path.abspath(r) for r in request["roots"]]
        lazy_syntax = request.get("lazy_syntax")
        if lazy_syntax is None:
            lazy_syntax = uses_lazy_syntax(roots, {e.partition(".")[0] for e, _ in request["jobs"]})
        lazy_modules = request.get("lazy_modules", True)
        fork = request.get("fork", True) and hasattr(os, "fork")
        # the jobs that run emulated come last, the emulation loaded before their forks: the
        # others never see the stdlib modules it brings (results stream in this order)
        jobs = sorted(request["jobs"], key=lambda job: _emulated(job[1], lazy_syntax))
        for entry, mode in jobs:
            if fork and _emulated(mode, lazy_syntax):
                load_lazy()
            if fork:
                result = run_forked(roots, entry, mode, request.get("timeout", 0), lazy_syntax,
                                    lazy_modules)
            else:
                result = run_one(roots, entry, mode, lazy_syntax=lazy_syntax,
                                 lazy_modules=lazy_modules)
            sys.stdout.write(_dumps(result) + "\n")
            sys.stdout.flush()
        return 0
    args = argv[1:]
    result_path = None
    if args[:1] == ["--result"]:
        result_path, args = args[1], args[2:]
        sys.dont_write_bytecode = True
        faulthandler.enable()
    lazy_syntax = "--lazy-syntax" in args[:2]
    lazy_modules = "--no-lazy-modules" not in args[:2]
    args = [a for a in args[:2] if a not in ("--lazy-syntax", "--no-lazy-modules")] + args[2:]
    roots, entry, mode = args[0].split(os.pathsep), args[1], args[2]
    roots = [os.path.abspath(r) for r in roots]
    if result_path is None:
        result = run_one(roots, entry, mode, lazy_syntax=lazy_syntax, lazy_modules=lazy_modules)
        sys.stdout.write(_dumps(result) + "\n")
        return 0
    if not hasattr(os, "fork"):
        _fresh_job(roots, entry, mode, lazy_syntax, lazy_modules, result_path)
    # the import runs in a child: its parent is this guard, never importsafe
    run_guarded(lambda: _fresh_job(roots, entry, mode, lazy_syntax, lazy_modules, result_path))


def _fresh_job(roots, entry, mode, lazy_syntax, lazy_modules, result_path):
    """Import `entry` here, write the outcome to `result_path`, end."""
    result = run_one(roots, entry, mode, lazy_syntax=lazy_syntax, lazy_modules=lazy_modules)
    data = (_dumps(result) + "\n").encode()
    _flush_std()
    fd = _os_open(result_path + ".tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    _write_all(fd, data)
    os.close(fd)
    _rename(result_path + ".tmp", result_path)
    _exit(0)  # as a forked job does: threads or atexit hooks of the import cannot hang it


if __name__ == "__main__":
    sys.exit(main(sys.argv))
