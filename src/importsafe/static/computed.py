"""Computed imports in the simulator: import calls whose module name is a string built when
they run (exprs.spell), loops that import one module per value (known values, or pkgutil's
listing of a package's own directory), `getattr(module, name)`, and a module `__getattr__`
(PEP 562) replayed for the name asked. Mixed into the Simulator, like LazyImports.
"""
from __future__ import annotations

import os
from dataclasses import replace

from .callreplay import _to_sim
from .facts import resolve_relative
from .events import Import, ImportFrom, walk
from .frames import Frame_, FunctionReturn, LoopBreak, LoopContinue, SimError, SimUnknown
from .purefn import PureObject
from .state import MISSING, OPAQUE, ModState


def _loop_value(value):
    """What a loop variable holds for one value: a literal (or an os.DirEntry, a Path), else
    the value as the simulator holds data (a list, a dict)."""
    if value is MISSING:
        return OPAQUE
    if isinstance(value, PureObject):
        return ("lit", value)
    return _to_sim(value, 0)

# a module __getattr__ re-entered through the imports it makes (each runs a module once)
MAX_GETATTR_DEPTH = 8
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "ImportCycleError"})


class ComputedImports:
    """The computed-import half of the Simulator."""

    last_import = OPAQUE  # what the last import call returned, for the Bind after it
    handled = None  # the SimError an `except` clause running now handles
    asking = None  # the frame of the module __getattr__ being replayed
    unresolved = None  # a call it made to a value of analysed code not known statically
    imported_names = None  # module -> the names its top level imports (made_in_code)
    answer = OPAQUE  # what the last module __getattr__ replayed returned, when it answered
    asking_owner = ""  # the module whose __getattr__ is being replayed

    # -- strings --------------------------------------------------------------------------
    def spell(self, parts, frame) -> str | None:
        """The string `parts` (exprs.spell) make now, or None when a part is not known."""
        text, whole = self._spelled(parts, frame)
        return text if whole else None

    def known_head(self, parts, frame) -> str:
        """The text the string `parts` make is known to start with: its literal and known
        parts up to the first that is not, with that part's known prefix."""
        return self._spelled(parts, frame)[0]

    def _spelled(self, parts, frame) -> tuple[str, bool]:
        """(the known head of the string, whether that is all of it)."""
        out = []
        for part in parts:
            if part.__class__ is str:
                out.append(part)
                continue
            value = self.part_value(part, frame)
            if value is not None and value[0] == "lit" and value[1].__class__ is str:
                out.append(value[1])
                continue
            if value is not None and value[0] == "affix":
                out.append(value[1])
            return "".join(out), False
        return "".join(out), True

    def part_value(self, part, frame):
        """The value of one non-string part, or None; never raises: the reads it makes were
        made by the expression's own events first."""
        kind = part[0]
        if kind == "modname":
            return ("lit", frame.module.name)
        if kind == "pkg":
            info = frame.module.info
            return ("lit", info.name if info.is_package else info.name.rpartition(".")[0])
        if kind == "opaque":  # a part the facts could not spell
            return None
        if kind == "replace":
            return self._replaced(part, frame)
        if kind == "eval":  # a piece pure code computes (facts_imports._evaluated_parts)
            value = self.pure_value(part[1], frame)
            return value if value[0] == "lit" else None
        try:
            if kind == "ref":
                value = self.lookup(part[1], frame)
                for attr in part[2]:
                    value = ("lit", value[1]) if value[0] == "m" and attr == "__name__" \
                        else self.getattr_value(value, attr)
                return value
            table = self.lookup(part[1], frame)
        except (SimError, SimUnknown):
            return None
        key = self.spell(part[2], frame)
        if table[0] != "dict" or key is None:
            return None
        for k, v in table[1]:
            if k == key:
                return v
        return ("lit", None) if kind == "get" else None

    def _replaced(self, part, frame):
        """("replace", parts, old, new): the string replaced, or what is known of it."""
        _, inner, old, new = part
        text = self.spell(inner, frame)
        if text is not None:
            return ("lit", text.replace(old, new))
        value = self.part_value(inner[0], frame) if len(inner) == 1 and \
            inner[0].__class__ is tuple else None
        if value is None or value[0] != "affix" or len(old) != 1:
            return None
        # one character at a time: a known head stays the head, replaced alike
        return ("affix", value[1].replace(old, new), value[2].replace(old, new))

    def outside_analysed(self, head: str) -> bool:
        """Does every module name that starts with `head` lie outside the analysed
        top-level packages?"""
        if "." in head:
            return self.is_external(head)
        return not any(top.startswith(head) for top in self.tops)

    def string_value(self, parts, frame):
        """A Bind's ("str", parts): the string, or the one part's own value (a dict's
        entry, None included)."""
        if len(parts) == 1 and parts[0].__class__ is tuple:
            return self.part_value(parts[0], frame) or OPAQUE
        text = self.spell(parts, frame)
        return ("lit", text) if text is not None else OPAQUE

    # -- import calls ---------------------------------------------------------------------
    def e_ComputedImport(self, ev, frame):
        self.last_import = OPAQUE
        if ev.loop is not None:
            self._import_each(ev, frame)
            return
        where = f"{frame.module.info.path}:{ev.line}"
        if ev.kwargs is not None:
            ev = self._splatted(ev, frame, where)
        name = self.spell(ev.parts, frame) if ev.parts is not None else None
        if name is None or ev.level < 0:
            head = self.known_head(ev.parts, frame) if ev.parts else ""
            if head and not head.startswith(".") and ev.call != "exec_module" and \
                    not ev.level and self.outside_analysed(head):
                return  # an external module: assumed importable, as imports of one are
            why = ev.why or "its module name cannot be evaluated statically"
            if self.unlisted:  # a directory listing it may come from could not be given
                why += f" ({self.unlisted})"
            elif not ev.why and ev.parts:
                why += self._unknown_part(ev.parts, frame)
            raise SimUnknown(f"{ev.call}() at {where}: {why}")
        target, level = name, 0
        if ev.call in ("import_module", "find_spec") and name.startswith("."):
            if ev.anchor is None:
                raise self.error("TypeError", None, None, "the 'package' argument is required "
                                 f"to perform a relative import for {name!r}")
            anchor = self.spell(ev.anchor, frame)
            if anchor is None:
                raise SimUnknown(f"{ev.call}() at {where}: its package cannot be evaluated")
            level = len(name) - len(name.lstrip("."))
            target = resolve_relative(name[level:] or None, level, anchor) if anchor else None
        elif ev.level > 0:
            level = ev.level
            info = frame.module.info
            target = resolve_relative(name or None, level, info.name if info.is_package else
                                      info.name.rpartition(".")[0])
        if target is None:
            raise self.error("ImportError", None, None, "attempted relative import beyond "
                             "top-level package")
        if ev.call == "find_spec":  # the parent is imported, the module is only found
            parent = target.rpartition(".")[0]
            if parent:
                self.import_module(parent)
            return
        if frame.guards and ev.call != "exec_module" and self.is_external(target):
            self.import_absent(target, ev.line, frame)
        self.import_module(target)
        if self.is_external(target):
            return
        if ev.call == "__import__" and ev.fromlist != ():
            self._import_fromlist(target, ev, where)
        keep = target if ev.call == "import_module" or ev.fromlist != () else \
            target.partition(".")[0] if not level else target[:len(target) - len(
                name.partition(".")[2]) - (1 if "." in name else 0)]
        self.last_import = self.ref(keep)

    def _splatted(self, ev, frame, where: str):
        """The import call with the arguments its `**name` gives filled in (that dict's
        value now); SimUnknown when they are not known."""
        try:
            value = self.lookup(ev.kwargs, frame)
        except (SimError, SimUnknown):
            value = OPAQUE
        why = f"{ev.call}() at {where}: its arguments are not known ('**{ev.kwargs}' holds " \
              "no dict known statically there)"
        if value[0] != "dict" or len(value) != 2:
            raise SimUnknown(why)
        fields: dict = {"kwargs": None}
        for key, item in value[1]:
            if key == "fromlist" and ev.fromlist == ():
                fields["fromlist"] = _names(item)
            elif key == "level" and not ev.level and item[0] == "lit" and \
                    item[1].__class__ is int:
                fields["level"] = item[1]
            elif key == "package" and ev.call != "__import__" and ev.anchor is None and \
                    item[0] == "lit" and item[1].__class__ is str:
                fields["anchor"] = (item[1],)
            elif key not in ("globals", "locals") or ev.call != "__import__":
                raise SimUnknown(why)
        if fields.get("level", 0) > 0 and "globals" in dict(value[1]):
            raise SimUnknown(why)  # the package is the one those globals name
        return replace(ev, **fields)

    def _unknown_part(self, parts, frame) -> str:
        """Which name the module name is read from holds no known string, said."""
        for part in parts:
            if part.__class__ is tuple and part[0] == "eval" and part[1][0] == "call" and \
                    self.part_value(part, frame) is None:
                return f" (what {part[1][1]}() returns is not known statically)"
            if part.__class__ is not tuple or part[0] not in ("ref", "item", "get"):
                continue
            value = self.part_value(part, frame)
            if value is None or value[0] != "lit" or value[1].__class__ is not str:
                return f" ('{part[1]}' holds no string known statically there)"
        return ""

    def _import_fromlist(self, target: str, ev, where: str) -> None:
        st = self.state(target)
        if st is None or not st.info.is_package:
            return
        names = ev.fromlist
        if names is None:
            raise SimUnknown(f"__import__() at {where}: its fromlist cannot be evaluated "
                             "statically")
        if "*" in names:
            found = self.ns_get(st, "__all__")
            listed = () if found is MISSING else found[1] if found[0] == "all" else None
            if listed is None:
                raise SimUnknown(f"__import__() at {where}: __all__ of '{target}' cannot be "
                                 "read statically")
            names = tuple(n for n in names if n != "*") + tuple(listed)
        self.handle_fromlist(st, names)

    def e_GetAttr(self, ev, frame):
        # no name: the module the import call just made returned (`getattr(__import__(...),
        # "x")`, `import_module("m").x`)
        value = self.lookup(ev.name, frame) if ev.name else self.last_import
        if value[0] == "m":
            attr = self.spell(ev.parts, frame)
            if attr is not None:
                self.getattr_value(value, attr)
                return
            st = self.deref(value)
            if st is not None and not st.opaque and self.status_of(st) in ("running", "exec"):
                # whether the name is bound yet is what the import order decides
                raise SimUnknown(f"getattr() at {frame.module.info.path}:{ev.line} reads a "
                                 f"name not known statically from the partially initialized "
                                 f"module '{st.name}'")

    # -- loops ----------------------------------------------------------------------------
    def e_ForEach(self, ev, frame):
        source = ev.source
        self.loop_breaks.append(None)
        try:
            if source[0] == "modules":
                self._for_modules(ev, frame)
                return
            skipped = False
            if source[0] == "eval":  # a directory listing (listed.py)
                values, skipped = self.listed_values(ev, frame)
            else:
                values = source[1] if source[0] == "values" else self._iterated(source, frame)
            if values is None:  # not known now: one pass, with values unknown
                for name in ev.targets:
                    if name:
                        self.bind(name, OPAQUE, frame)
                try:
                    self._pass(ev, frame)
                finally:
                    self.unlisted = None
                return
            for value in values:
                self._bind_targets(ev, value, frame)
                if self._pass(ev, frame):
                    return
            if skipped:
                self.after_listed(ev, frame)
        finally:
            self.loop_breaks.pop()

    def _import_each(self, ev, frame) -> None:
        """A comprehension's import call, once per value of its variable, in order: each
        in a scope of its own where the variable holds the value (the comprehension's)."""
        name, source = ev.loop
        if source[0] == "attr":  # another module's tuple (or dict) of literals, now
            found = self.value_now(source[1], source[2], frame)
            values = found[1] if found is not None and found[0] == "lit" and \
                found[1].__class__ is tuple else tuple(k for k, _ in found[1]) \
                if found is not None and found[0] == "dict" and len(found) == 2 else None
        else:
            values = source[1] if source[0] == "values" else self._iterated(source, frame)
        if values is None or frame.kind == "class":
            raise SimUnknown(f"{ev.call}() at {frame.module.info.path}:{ev.line}: its name "
                             "is computed from a comprehension's variable over values not "
                             "known statically")
        one = replace(ev, loop=None)
        outer = frame.local_names if frame.kind == "function" else frozenset()
        for value in values:
            scope = Frame_("function", frame.module, outer | {name}, frame.global_names)
            if frame.kind == "function":
                scope.locals.update(frame.locals)
            scope.locals[name] = ("lit", value) if value is not MISSING else OPAQUE
            self.e_ComputedImport(one, scope)
        self.last_import = OPAQUE

    def _pass(self, ev, frame) -> bool:
        """One pass of a ForEach's body: True when it reached `break`. A failure after a
        `break` or `continue` that may have been taken is uncertain."""
        try:
            self.exec_block(ev.body, frame)
        except LoopBreak:
            return True
        except LoopContinue:
            return False
        except SimError as err:
            err.uncertain = err.uncertain or self.loop_breaks[-1]
            raise
        return False

    def _iterated(self, source, frame) -> tuple | None:
        """("name", var, how): the keys, values or items of a literal dict held by `var`, or
        the names of a list it holds; ("attr", name, attrs): the same of `name.attrs`
        iterated; ("dir", name, attrs): dir() of a module."""
        if source[0] == "dir":
            return self.names_of(source, frame)
        if source[0] == "comp":
            return self.comprehension(source, frame)
        if source[0] == "attr":  # another module's value, now (its read is an event before)
            table, how = self.value_now(source[1], source[2], frame), "keys"
        else:
            try:
                table, how = self.lookup(source[1], frame), source[2]
            except (SimError, SimUnknown):
                return None
        if table is None:
            return None
        if table[0] == "all" and how == "keys":
            return table[1]
        if table[0] == "lit" and table[1].__class__ is tuple and how == "keys":
            return table[1]  # a tuple of literals
        if table[0] != "dict" or len(table) > 2 and table[2] != "list":
            return None  # a set's order is not known
        if how == "keys":
            return tuple(k for k, _ in table[1])
        if how == "values":
            return tuple(v[1] if v[0] == "lit" else MISSING for _, v in table[1])
        return tuple((k, v[1] if v[0] == "lit" else MISSING) for k, v in table[1])

    def _bind_targets(self, ev, value, frame) -> None:
        if not ev.tuple_target:
            self.bind(ev.targets[0], _loop_value(value), frame)
            return
        items = value if isinstance(value, (tuple, list)) and len(value) == len(ev.targets) \
            else None
        for i, name in enumerate(ev.targets):
            if name:
                self.bind(name, _loop_value(items[i] if items is not None else MISSING), frame)

    def _for_modules(self, ev, frame) -> None:
        _, path, prefix_parts, walk = ev.source
        where = f"{frame.module.info.path}:{ev.line}"
        package = self._listed_package(path, frame)
        prefix = self.spell(prefix_parts, frame)
        if package is None or prefix is None:
            raise SimUnknown(f"pkgutil loop at {where}: the directory or the prefix it lists "
                             "cannot be evaluated statically")
        self._walk(ev, frame, package, prefix, walk, where)

    def _walk(self, ev, frame, package: str, prefix: str, walk: bool, where: str) -> bool:
        """The passes over `package`'s listing (and, walking, its subpackages'): True when
        one reached `break`."""
        for child, ispkg in self.listing(package):
            full = prefix + child
            if ev.tuple_target:
                self._bind_targets(ev, (MISSING, full, ispkg), frame)
            else:
                self.bind(ev.targets[0], ("modinfo", full, ispkg), frame)
            if self._pass(ev, frame):
                return True
            if not (walk and ispkg):
                continue
            if self.is_external(full):
                raise SimUnknown(f"walk_packages at {where} imports '{full}', outside the "
                                 "analysed packages")
            try:  # pkgutil.walk_packages: an ImportError skips the package
                self.import_module(full)
            except SimError as err:
                if err.info.exception in _IMPORT_ERRORS:
                    continue
                raise
            st = self.state(full)
            if st is not None and st.info.is_package and not st.opaque and \
                    self._walk(ev, frame, full, full + ".", walk, where):
                return True
        return False

    def _listed_package(self, path, frame) -> str | None:
        """The package whose directory `path` (("own",) or ("of", name, attrs)) lists."""
        if path[0] == "own":
            info = frame.module.info
            return info.name if info.is_package else info.name.rpartition(".")[0] or None
        try:
            value = self.resolve(path[1], path[2], frame)
        except (SimError, SimUnknown):
            return None
        st = self.deref(value) if value[0] == "m" else None
        return st.name if st is not None and st.info.is_package and \
            st.info.kind != "namespace" else None

    def listing(self, package: str) -> list[tuple[str, bool]]:
        """(name, is a package) of the modules pkgutil.iter_modules finds in a package's
        directory, in its order: the file names sorted (a directory only with an
        `__init__`), `__init__` left out."""
        found = []
        prefix = package + "."
        for name, info in self.index.items():
            if not name.startswith(prefix) or "." in name[len(prefix):]:
                continue
            if info.kind == "namespace" or info.path.endswith(".pyi"):
                continue
            ispkg = info.is_package
            file = os.path.basename(os.path.dirname(info.path) if ispkg else info.path)
            found.append((file, name[len(prefix):], ispkg))
        found.sort()
        return [(name, ispkg) for _, name, ispkg in found]

    # -- module __getattr__ ---------------------------------------------------------------
    def module_getattr(self, st: ModState, attr: str, reading: bool = False) -> bool:
        """Does the module's `__getattr__` answer for `attr` (True), or raise AttributeError
        (False; also when it has none)? Raises what it raises otherwise; SimUnknown when it
        cannot be replayed."""
        found = self.ns_get(st, "__getattr__")
        if found is MISSING:
            return False
        return self.replay_getattr(found, attr, reading, st.name)

    def replay_getattr(self, found, attr: str, reading: bool, owner: str,
                       called: str = "") -> bool:
        """module_getattr for the function value `found`: the `__getattr__` of module `owner`,
        or what it calls (`called`: that name) to answer for `attr`."""
        who = f"the __getattr__ of module '{owner}'" + (f" (through '{called}')" if called
                                                           else "")
        module = self.deref(found) if found[0] == "f" and found[3] is not None else None
        func = self.program.function_body(module.name, found[3]) if module else None
        if func is None or not func.positional or \
                self.calls.count(id(func)) >= MAX_GETATTR_DEPTH or \
                len(self.calls) >= 30:
            raise SimUnknown(f"module '{owner}' has a __getattr__ that may answer for "
                             f"'{attr}'" + (f" (through '{called}')" if called else ""))
        frame = Frame_("function", module, func.local_names, func.global_names)
        frame.locals[func.positional[0]] = ("lit", attr)
        self.calls.append(id(func))
        raised = context = None
        returned = OPAQUE
        saved = self.asking, self.unresolved, self.asking_owner
        self.asking, self.unresolved, self.asking_owner = frame, None, owner
        try:
            self.exec_block(func.body, frame)
        except FunctionReturn as exit_:
            raised, context = exit_.raised or None, exit_.context
            returned = exit_.value or OPAQUE
        except SimError as err:
            if err.info.exception == "AttributeError" and not err.uncertain and \
                    not frame.uncertain and not reading:
                return False  # as hasattr() and IMPORT_FROM take it
            err.uncertain = err.uncertain or frame.uncertain
            raise
        finally:
            self.calls.pop()
            unresolved = self.unresolved
            self.asking, self.unresolved, self.asking_owner = saved
        if unresolved and raised is None:
            raise SimUnknown(f"{who} asked for '{attr}' answers with what '{unresolved}' "
                             "returns, not known statically")
        if frame.uncertain or raised == "?":
            raise SimUnknown(f"{who} asked for '{attr}': "
                             f"{frame.uncertain or 'it raises an exception not known statically'}")
        if raised is None:
            self.answer = returned
            return True
        if raised == "AttributeError":
            return False
        # raised in an `except` clause, its message most likely quotes the error handled
        # (`raise ImportError(f"...: {e}") from e`): the name is that error's
        inner = context.info if context is not None else None
        message = f"{raised} raised by {who} for '{attr}'" + (f": {inner.message}" if inner
                                                              else "")
        return_name = inner.name if inner is not None and raised == inner.exception else None
        raise self.error(raised, None, return_name, message)

    def made_in_code(self, name: str, frame) -> str | None:
        """`name` when the module global it reads was bound by the module's own code (a
        call's result: a closure, an instance), not imported from outside nor a builtin."""
        if name in frame.locals or self.ns_get(frame.module, name) is MISSING:
            return None
        if self.imported_names is None:
            self.imported_names = {}
        imported = self.imported_names.get(frame.module.name)
        if imported is None:
            imported = self.imported_names[frame.module.name] = _imported_names(
                self.facts.get(frame.module.name))
        return None if name in imported else name


def _names(value) -> tuple[str, ...] | None:
    """A fromlist's value as names, or None when it is not known."""
    if value[0] == "lit" and value[1].__class__ is tuple and all(
            v.__class__ is str for v in value[1]):
        return value[1]
    if value[0] == "dict" and len(value) == 3 and value[2] == "list" and all(
            k.__class__ is str for k, _ in value[1]):
        return tuple(k for k, _ in value[1])
    return None


def _imported_names(facts) -> frozenset[str]:
    """The names a module's top level binds by import statements."""
    found: set[str] = set()
    for ev in walk(facts.body if facts is not None else ()):
        if ev.__class__ is Import and ev.call is None:
            found.add(ev.asname or ev.module.partition(".")[0])
        elif ev.__class__ is ImportFrom:
            found.update(a or n for n, a in ev.names)
    return frozenset(found)
