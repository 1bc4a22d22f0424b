"""The class half of the effect engine (effects.Engine mixes it in): class statements,
an MRO stand-in over analysed classes, method lookup, and function bodies parsed on demand
(only the lines of the def, the whole module when that fails). Pure: sources come through
the engine's read_source."""
from __future__ import annotations

import ast
import bisect

from .interp import LIT, OWN
from .scan import ModuleScan, parse_source


class Classes:
    """Needs from the engine: scans, canonical, kind, effect, _run, read_source, _trees,
    _split."""

    def class_statement(self, ctx, code_module, line, name, bases, keywords, value) -> None:
        value = self.canonical(value)
        for base in bases:
            base = self.canonical(base)
            kind = self.kind(base)
            if kind is not None and kind[0] == "class" and not base[3] \
                    and not self.is_caller(ctx, base[1]):
                self.effect(ctx, "subclass", (base[1], base[2], "__subclasses__"),
                            f"defines {name}, a subclass of {base[1]}.{base[2]}")
        ancestors = self.ancestors(bases)
        for klass in ancestors:
            found = self.method(klass, "__init_subclass__", inherit=False)
            if found is not None:
                self._run(ctx, *found, (value,), keywords)
                break
        meta = dict(keywords).get("metaclass")
        if meta is None:
            meta = next((m for k in ancestors for m in [self._declared_metaclass(k)] if m),
                        None)
        meta = self.canonical(meta) if meta is not None else None
        if meta is not None and self.kind(meta) is not None and self.kind(meta)[0] == "class":
            for method, first in (("__new__", meta), ("__init__", value)):
                found = self.method(meta, method)
                if found is not None:
                    self._run(ctx, *found, (first, LIT, OWN, OWN), ())

    def lineage(self, module: str, name: str) -> list[str]:
        """The names of the class and of its analysed ancestors."""
        return [k[2] for k in self.ancestors([("g", module, name, ())])] or [name]

    def _declared_metaclass(self, klass: tuple):
        info = self.scans[klass[1]].classes.get(klass[2])
        return dict(info.keywords).get("metaclass") if info is not None else None

    def ancestors(self, bases) -> list[tuple]:
        """The analysed classes among the bases and theirs, depth first (an MRO stand-in)."""
        out: list[tuple] = []
        stack = [self.canonical(b) for b in reversed(list(bases))]
        while stack and len(out) < 64:
            klass = stack.pop()
            kind = self.kind(klass)
            if klass in out or kind is None or kind[0] != "class" or klass[3]:
                continue
            out.append(klass)
            info = self.scans[klass[1]].classes.get(klass[2])
            if info is not None:
                stack.extend(self.canonical(b) for b in reversed(info.bases))
        return out

    def method(self, klass: tuple, name: str, skip_self: bool = False, inherit: bool = True):
        """(module, def node, defining class) of `klass.name` among analysed classes."""
        for candidate in self.ancestors([klass])[1 if skip_self else 0:]:
            info = self.scans[candidate[1]].classes.get(candidate[2])
            line = info.method_line(name) if info is not None else None
            if line is not None:
                node = self.function_node(candidate[1], line)
                return (candidate[1], node, candidate) if node is not None else None
            if not inherit:
                break
        return None

    def function_node(self, module: str, line: int):
        """The def on `line` of `module` (module level or a method), with its body: only its
        own lines are parsed (as the body of an `if 1:`), the whole module when that fails."""
        defs = self._trees.setdefault(module, {})
        if line not in defs:
            defs[line] = self._parse_def(module, line)
        return defs[line]

    def _parse_def(self, module: str, line: int):
        scan = self.scans[module]
        try:
            source = self.read_source(module)
        except OSError:
            return None
        span = self._span(scan, line)
        if span is not None:
            lines = self._lines(module, source)[span[0] - 1:span[1]]
            indented = lines[0][:1] in (b" ", b"\t")
            try:
                # blank lines ahead put every node on its line in the file (no renumbering)
                tree = ast.parse(b"\n" * (span[0] - 1 - indented) + b"if 1:\n" * indented +
                                 b"\n".join(lines), filename=scan.path)
                node = tree.body[0].body[0] if indented else tree.body[0]
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                        and node.lineno == line:
                    return node
            except (SyntaxError, ValueError, RecursionError, MemoryError, IndexError):
                pass
        try:
            tree, _ = parse_source(source, scan.path, True)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno == line:
                return node
        return None

    def _lines(self, module: str, source: bytes) -> list[bytes]:
        found = self._split.get(module)
        if found is None:
            found = self._split[module] = source.split(b"\n")
        return found

    @staticmethod
    def _span(scan: ModuleScan, line: int):
        """(first, last) line of the def on `line`: a module-level def's segment, or the
        lines of a method up to the next statement of its class."""
        at = bisect.bisect_right(scan.segments, (line, float("inf"))) - 1
        if at < 0 or not scan.segments[at][0] <= line <= scan.segments[at][1]:
            return None
        start, end = scan.segments[at]
        if start == line:
            return start, end
        for info in scan.classes.values():
            if info.line == start:
                later = [s for s in info.starts if s > line]
                return line, (later[0] - 1 if later else end)
        return None


