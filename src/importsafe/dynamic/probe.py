"""Run first imports for real and describe their outcome as JSON.

Stdlib only and Python 3.8+ syntax: this file runs inside the *target* interpreter, never
inside importsafe's own process. It never imports the target package in the parent; each
(entry, mode) runs in a forked child (or, with --no-fork, in this process, which must be a
fresh interpreter).

Usage:
    python probe.py --batch            # stdin: {"roots": [...], "jobs": [[entry, mode], ...],
                                       #         "timeout": seconds, "fork": true}
                                       # stdout: one JSON outcome per line, in job order
    python probe.py --serve            # the fork server of importsafe's runner (see serve())
    python probe.py [--result FILE] ROOTS ENTRY MODE
                                       # one job in this fresh interpreter (--no-fork); the
                                       # outcome goes to FILE (else stdout)
"""

import importlib
import importlib.machinery
import importlib.util
import errno
import faulthandler
import json
import os
import re
import select
import shutil
import signal
import sys
import time
import traceback
import types

_NAME_RE = re.compile(r"cannot import name '([^']*)'")
_ATTR_RE = re.compile(r"module '([^']*)'(?: from '[^']*')? has no attribute '([^']*)'")
_SUBMOD_RE = re.compile(r"cannot access submodule '([^']*)' of module '([^']*)'")
_NAMEERR_RE = re.compile(r"name '([^']*)' is not defined")


def _under(path, roots):
    path = os.path.realpath(path or "")
    return any(path == r or path.startswith(r + os.sep) for r in roots)


def _chain(tb, roots):
    chain = []
    for frame, lineno in traceback.walk_tb(tb):
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
    for frame, _ in traceback.walk_tb(tb):
        last = frame
    return last.f_globals if last is not None else {}


def describe(exc, tb, roots):
    """Return the error dict for an exception escaping `import entry`."""
    message = str(exc)
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


def run_one(roots, entry, mode, check_loaded=True):
    """Import `entry` in this (fresh) process and return the outcome dict. In a zygote (a
    fork of a process that already imported an ancestor package of `entry` in normal mode)
    `check_loaded` is off: the package is meant to be loaded already."""
    real_roots = [os.path.realpath(r) for r in roots]
    sys.path[:] = list(roots) + [p for p in sys.path if p not in roots]
    top = entry.split(".")[0]
    loaded = check_loaded and sorted(m for m in sys.modules if m == top or m.startswith(top + "."))
    result = {"entry": entry, "mode": mode}
    if loaded:
        result.update(outcome="crash", reason="already loaded before the entry: " + ", ".join(loaded))
        return result
    try:
        if mode == "bare":
            setup_bare(entry)
        importlib.import_module(entry)
    except BaseException as exc:  # noqa: B902 - everything that escapes is the outcome
        tb = exc.__traceback__
        result.update(outcome="error", error=describe(exc, tb, real_roots))
        return result
    result["outcome"] = "ok"
    return result


def _child(roots, entry, mode, write_fd, timeout):
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    if timeout:
        signal.alarm(int(max(1, timeout)))
    try:
        result = run_one(roots, entry, mode)
        data = json.dumps(result).encode()
    except BaseException as exc:  # noqa: B902
        data = json.dumps({"entry": entry, "mode": mode, "outcome": "crash",
                           "reason": "probe failed: %r" % (exc,)}).encode()
    with os.fdopen(write_fd, "wb") as out:
        out.write(data)
    os._exit(0)


def run_forked(roots, entry, mode, timeout):
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(roots, entry, mode, write_fd, timeout)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as src:
        data = src.read()
    _, status = os.waitpid(pid, 0)
    if data:
        return json.loads(data.decode())
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM:
        return {"entry": entry, "mode": mode, "outcome": "timeout"}
    reason = "signal %d" % os.WTERMSIG(status) if os.WIFSIGNALED(status) \
        else "exit code %d" % os.WEXITSTATUS(status)
    return {"entry": entry, "mode": mode, "outcome": "crash", "reason": reason}


def main(argv):
    if os.path.dirname(os.path.abspath(__file__)) in [os.path.abspath(p) for p in sys.path[:1]]:
        del sys.path[0]  # never let the target see importsafe's own files
    if argv[1:2] == ["--batch"]:
        request = json.loads(sys.stdin.read())
        roots = [os.path.abspath(r) for r in request["roots"]]
        for entry, mode in request["jobs"]:
            if request.get("fork", True) and hasattr(os, "fork"):
                result = run_forked(roots, entry, mode, request.get("timeout", 0))
            else:
                result = run_one(roots, entry, mode)
            sys.stdout.write(json.dumps(result) + "\n")
            sys.stdout.flush()
        return 0
    roots, entry, mode = argv[1].split(os.pathsep), argv[2], argv[3]
    sys.stdout.write(json.dumps(run_one([os.path.abspath(r) for r in roots], entry, mode)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
