"""Static prediction vs real outcome (`check --verify`): diagnostics where they disagree.

Compared per (entry, mode): (outcome, exception, module, name). Not every difference is a
disagreement: static analysis answers `unknown` where it cannot decide (no claim: IS202,
info), and it assumes that a module outside the source roots imports fine and binds every
name asked of it, and that a compiled module (an extension, or mypyc) imports fine, binds
every name asked of it and may register submodules of its own (a real `No module named
'torch._C._dynamo'` in bare mode, where torch's `__init__` did not register it); a real
failure that comes from that assumption is IS203 (info), whether
the static side predicted success or a failure it reached only past that import (the real
run stopped first: that prediction cannot be checked in this environment). A real failure
with an exception the import system does not raise (Django's ImproperlyConfigured when no
settings are configured, a native library that cannot be loaded, a KeyError) comes from
run-time values, which static analysis does not evaluate: IS206 (info), on the same
conditions; so does an ImportError that the code raises itself, naming no module ("Could not
find the GEOS library"), and an AttributeError of an object that is no module (a ctypes
library without a symbol). A real failure on exactly a name the static result assumed bound
(the ordinary-order rule, `Result.assumes`) is IS207 (warning). An entry the interpreter
imported while starting (a `.pth` file), which no job can import first, is IS208 (info).
Every other difference is IS201 (error).
"""
from __future__ import annotations

import ast
import os

from ..rules import RULES, Rule
from ..model import Diagnostic, Report, Result
from ..static.discover import EXTENSION_SUFFIXES, loaded_file
from ..static.facts import resolve_relative

RUN_RULES: dict[str, Rule] = {c: RULES[c] for c in ("IS201", "IS202", "IS203", "IS204",
                                                     "IS205", "IS206", "IS207", "IS208")}
STARTUP_LOADED = "already loaded before the entry"  # the probe's reason (probe.run_one)
SYNTAX_ERRORS = frozenset({"SyntaxError", "IndentationError", "TabError"})
# what the import system and name lookups raise, which static analysis predicts; any other
# exception of a real import comes from values it does not evaluate (IS206)
IMPORT_EXCEPTIONS = frozenset({"ImportError", "ModuleNotFoundError", "ImportCycleError",
                               "AttributeError", "NameError", "UnboundLocalError",
                               "SyntaxError", "IndentationError", "TabError"})


def diagnostic(code: str, file: str, line: int, message: str, entry=None, mode=None):
    rule = RUN_RULES[code]
    return Diagnostic(rule.code, rule.name, rule.severity, file, line, message, entry, mode)


def outcome_key(r: Result) -> tuple:
    """What static and dynamic results are compared on: outcome, exception, module, name.
    A file that does not compile is a SyntaxError whatever its subclass (IndentationError,
    TabError) and names no module in CPython's exception."""
    if r.outcome == "error" and r.error is not None:
        if r.error.exception in SYNTAX_ERRORS:
            return ("error", "SyntaxError")
        return ("error", r.error.exception, r.error.module, r.error.name)
    return (r.outcome,)


def _show(key: tuple) -> str:
    if key[0] != "error":
        return key[0]
    if len(key) == 2:  # a SyntaxError (outcome_key)
        return key[1]
    return f"{key[1]}(module={key[2]}, name={key[3]})"


def _found(roots, top: str, analysed=None) -> bool:
    """Is `top` analysed: in a source root, and, in an installation directory, one of the
    analysed distribution's (`analysed`: root -> its analysed top-level names, for those
    roots; the others' packages are dependencies, as in the static run)?"""
    return any((os.path.isdir(os.path.join(r, top)) or os.path.isfile(os.path.join(r, top + ".py")))
               and (analysed is None or r not in analysed or top in analysed[r]) for r in roots)


def _parsed(path: str) -> ast.Module | None:
    """A source file's syntax tree, None when it cannot be read or parsed."""
    try:
        with open(path, "rb") as f:
            return ast.parse(f.read())
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _star_from_external(path: str, roots, mapped=(), analysed=None) -> bool:
    """Does this file run `from M import *` with M outside the source roots?"""
    tree = _parsed(path)
    return tree is not None and any(isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
               and any(a.name == "*" for a in node.names)
               and node.module.partition(".")[0] not in mapped
               and not _found(roots, node.module.partition(".")[0], analysed)
               for node in ast.walk(tree))


def _reraised_external(frame, roots, mapped=(), analysed=None) -> bool:
    """Is the statement at `frame` a `raise` in an `except ImportError` handler whose `try`
    imports only modules outside the analysed code (an optional dependency's own message:
    `raise ModuleNotFoundError("... requires Cartopy") from e`)?"""
    tree = _parsed(frame.file)
    for node in ast.walk(tree) if tree is not None else ():
        if not isinstance(node, ast.Try):
            continue
        for handler in node.handlers:
            if not any(isinstance(s, ast.Raise) and s.lineno == frame.line
                       for s in ast.walk(handler)):
                continue
            caught = handler.type
            names = [n.id for n in ast.walk(caught) if isinstance(n, ast.Name)] if caught \
                else []
            if not names or not set(names) <= {"ImportError", "ModuleNotFoundError"}:
                return False
            inner = [sub for stmt in node.body for sub in ast.walk(stmt)]
            imported = [a.name for sub in inner if isinstance(sub, ast.Import)
                        for a in sub.names] + \
                [sub.module for sub in inner if isinstance(sub, ast.ImportFrom) and
                 sub.level == 0 and sub.module]
            relative = any(isinstance(sub, ast.ImportFrom) and sub.level for sub in inner)
            return bool(imported) and not relative and all(
                m.partition(".")[0] not in mapped and not _found(roots, m.partition(".")[0],
                                                                  analysed)
                for m in imported)
    return False


def _extension(module: str, roots) -> bool:
    """Is `module` a compiled extension module in one of the roots (as the scan finds it)?"""
    parts = module.split(".")
    for root in roots:
        found = loaded_file(os.path.join(root, *parts[:-1]), parts[-1])
        if found is not None and found[0].endswith(EXTENSION_SUFFIXES):
            return True
    return False


def _imports_extension(frame, roots) -> bool:
    """Does the statement at `frame` (module, file, line) import a compiled module of the
    roots? Then a failure there may be raised by that module's init."""
    return any(name and _extension(name, roots)
               for base, named in _imports_at(frame) for name in (base, *named))


def _imports_at(frame) -> list[tuple[str | None, list[str]]]:
    """The import statements on the line the chain's `frame` (module, file, line) was
    executing: for each, the package of a `from` import (None for `import a, b`) and the
    modules it names, in order; empty when the file cannot be read."""
    tree = _parsed(frame.file)
    if tree is None:
        return []
    package = frame.module if os.path.basename(frame.file).startswith("__init__.") \
        else frame.module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) != frame.line:
            continue
        if isinstance(node, ast.Import):
            out.append((None, [a.name for a in node.names]))
        elif isinstance(node, ast.ImportFrom):
            base = resolve_relative(node.module, node.level, package)
            if base is not None:
                out.append((base, [f"{base}.{a.name}" for a in node.names]))
    return out


def external_assumption(real: Result, roots, mapped=(), analysed=None) -> bool:
    """Is this real failure one static analysis assumes away (see the module docstring)?
    `mapped`: top-level packages analysed although in no source root (package-dir)."""
    err = real.error
    if err is None:
        return False
    top = err.module.partition(".")[0] if err.module else None
    if top and top not in mapped and not _found(roots, top, analysed):
        return True  # missing, failing or lacking a name: a module in no source root
    if err.exception in ("ImportError", "AttributeError") and err.module and \
            _extension(err.module, roots):
        return True  # a compiled module (mypyc) of the analysed code lacking a name
    if err.chain:
        where = err.chain[-1]
        if where.module and not _found(roots, where.module.partition(".")[0], analysed) \
                and where.module.partition(".")[0] not in mapped:
            return True  # raised by an external module's own code (it imported back)
        if any(_imports_extension(frame, roots) for frame in err.chain):
            # raised by a compiled module's init (it read a bare package), or by analysed
            # code that init imported (assumed never to happen: scipy's _decomp_interpolative)
            return True
        if err.exception in ("ImportError", "ModuleNotFoundError") and \
                _reraised_external(where, roots, mapped, analysed):
            return True  # an optional dependency missing, told in the package's own words
    if err.exception == "ModuleNotFoundError" and err.module and "." in err.module and \
            _extension(err.module.rpartition(".")[0], roots):
        return True  # a submodule an extension module is assumed to register (torch._C._VF)
    if err.exception == "NameError" and err.chain:
        return _star_from_external(err.chain[-1].file, roots, mapped, analysed)
    return False


def run_time_failure(real: Result) -> bool:
    """Did the real import fail on run-time values (see the module docstring)? An exception
    the import system does not raise, an ImportError raised by the code itself (the import
    system's name a module: Django's "Could not find the GEOS library" names none), or an
    AttributeError of an object that is no module (a ctypes library lacking a symbol)."""
    err = real.error
    if err is None:
        return False
    return err.exception not in IMPORT_EXCEPTIONS or (
        err.exception in ("ImportError", "AttributeError") and err.module is None)


def went_past(predicted: Result, real: Result) -> bool:
    """Did the static run get past the statement where the real run failed? Their chains
    (module, file, line per frame, outermost first) agree up to a frame where the static one
    is further along in the same module, or the static chain ends at a statement of the real
    chain (its failure there came after the import the real run failed in)."""
    ours = predicted.error.chain if predicted.error is not None else ()
    theirs = real.error.chain if real.error is not None else ()
    for k, (mine, other) in enumerate(zip(ours, theirs)):
        if mine != other:
            if mine.module == other.module and mine.file == other.file:
                return mine.line > other.line
            if k == 0:
                return False
            # the same statement (the frames before are equal) imports a package before its
            # submodules: failing in `a.b.c`, the static run got past `a.b`, where the real
            # one failed
            if mine.module.startswith(other.module + "."):
                return True
            # one statement importing several modules (`from pkg import a, b`): the static
            # run got past the one the real run failed in when it failed in a later one
            return _later_in_statement(ours[k - 1], mine.module, other.module)
    return len(ours) < len(theirs)


def _later_in_statement(frame, later: str, earlier: str) -> bool:
    """Does the import statement the chain's `frame` was executing (`from pkg import a, b`,
    `import a, b`) import module `later` after module `earlier`? CPython imports them in the
    order named. False when that cannot be read."""
    for _, named in _imports_at(frame):
        if later in named and earlier in named:
            return named.index(later) > named.index(earlier)
    return False


def _assumed(static: Result, real: Result) -> bool:
    """The real failure is on a name the static result assumed bound (Result.assumes)."""
    err = real.error
    return real.outcome == "error" and err is not None and \
        err.exception in ("ImportError", "AttributeError", "NameError") and \
        any(a.kind == "order" and a.module == err.module and a.name == err.name
            for a in static.assumes)


def compare(static: Report, dynamic: Report, mapped=(), analysed=None
            ) -> tuple[Diagnostic, ...]:
    """One diagnostic per (entry, mode) where the static and the real outcome differ.
    `mapped`: top-level packages in directories of their own (setuptools package-dir);
    `analysed`: for the roots that are installation directories, the top-level names analysed
    there (parse.analysed_by_root; other distributions' packages are dependencies)."""
    real = {(r.entry, r.mode): r for r in dynamic.results}
    roots = list(static.roots or dynamic.roots)
    out: list[Diagnostic] = []
    for s in static.results:
        d = real.get((s.entry, s.mode))
        if d is None:
            continue
        skey, dkey = outcome_key(s), outcome_key(d)
        if skey == dkey:
            continue
        site = d if d.error is not None and d.error.chain else s
        file, line = (site.error.chain[-1].file, site.error.chain[-1].line) \
            if site.error is not None and site.error.chain else ("", 0)
        detail = d.error.message if d.error is not None else (d.reason or "")
        what = f"first import of {s.entry} ({s.mode}): static: {_show(skey)}; " \
               f"dynamic: {_show(dkey)}" + (f" [{detail}]" if detail else "")
        if d.outcome == "crash" and (d.reason or "").startswith(STARTUP_LOADED):
            out.append(diagnostic("IS208", file, line, what, s.entry, s.mode))
        elif s.outcome == "unknown":
            out.append(diagnostic("IS202", file, line, f"{what}; static: {s.reason}",
                                  s.entry, s.mode))
        elif _assumed(s, d):
            out.append(diagnostic("IS207", file, line, what + "; static analysis took the name "
                                  "as bound (the ordinary-order rule)", s.entry, s.mode))
        elif s.outcome == "ok" and external_assumption(d, roots, mapped, analysed):
            out.append(diagnostic("IS203", file, line, what, s.entry, s.mode))
        elif s.outcome == "error" and external_assumption(d, roots, mapped, analysed) and \
                went_past(s, d):
            out.append(diagnostic("IS203", file, line, what + "; the static failure comes "
                                  "after that import, so it cannot be checked without the "
                                  "module", s.entry, s.mode))
        elif d.outcome == "error" and run_time_failure(d) and \
                (s.outcome == "ok" or (s.outcome == "error" and went_past(s, d))):
            out.append(diagnostic("IS206", file, line, what, s.entry, s.mode))
        else:
            taken = [a.name for a in s.assumes if a.kind in ("object", "super")]
            if taken:  # a replay the static result rests on may be where it went wrong
                what += f"; static analysis took {', '.join(taken)}() to import nothing"
            out.append(diagnostic("IS201", file, line, what, s.entry, s.mode))
    return tuple(out)
