"""`torch.ops`, modelled as torch documents it, when torch's own sources are analysed.

`torch.ops.NS` is an `_OpNamespace`; its `__getattr__` asks the dispatcher for `NS::X` and
raises AttributeError when no loaded code has defined it. Operators of namespaces that C++
defines are there once torch's extension is loaded; a namespace that Python code of the tree
defines (`Library("NS", "DEF")`) gets its operators when the modules that define them run:
`lib.define("X(Tensor a) -> Tensor")`, a helper handed such a schema (torch's
`make_prim("fma(Tensor a, ...) -> Tensor", ...)`), `torch.library.define("NS::X", ...)` or
`@custom_op("NS::X")`. So `torch.ops.prims.fma` read before `torch._inductor.inductor_prims`
has run raises AttributeError, in the orders where nothing imported that module first.

Pure: the scan of one source, and the table of a tree's definitions."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

# the module that binds `ops`, and the names its _Ops instance has of its own
OPS_MODULE = "torch._ops"
OPS_ATTRS = frozenset({"loaded_libraries", "higher_order", "_dir", "import_module",
                       "load_library"})

# what a source that defines operators mentions (a superset, cheap to test)
_WORDS = (b"->", b"::", b"Library(")
_SCHEMA = re.compile(r"^(?:(\w+)::)?([A-Za-z_]\w*)(?:\.\w+)?\(.*\)\s*->", re.S)
_QUALIFIED = re.compile(r"^(\w+)::([A-Za-z_]\w*)$")
# calls whose first argument names the operator they define ("NS::X")
_DEFINERS = frozenset({"define", "custom_op", "triton_op"})


def scan(source: bytes | str | None, tree: ast.Module | None = None, module: str = "torch"
         ) -> tuple:
    """What a module's top-level code defines, as plain data (ModuleFacts.torch_ops): ((the
    namespaces of its `Library("NS", "DEF")`), ((namespace or "" when the schema does not
    say it, operator, line), ...)); () when nothing. `tree`: the module's parse (function
    bodies may be cut), else `source` is parsed; looked for in torch's own modules and in
    those that mention `torch.library` / `Library(` only (user code that defines operators)."""
    data = source.encode("utf-8", "replace") if isinstance(source, str) else source
    if data is not None and (module.partition(".")[0] != "torch" and b"torch.library" not in
                             data and b"Library(" not in data or
                             not any(word in data for word in _WORDS)):
        return ()
    if tree is None:
        try:
            tree = ast.parse(data or b"")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return ()
    namespaces: list[str] = []
    ops: list[tuple[str, str, int]] = []
    for call in _top_level_calls(tree):
        name = _called_name(call.func)
        args = [a.value for a in call.args if _is_str(a)]
        args += [k.value.value for k in call.keywords if _is_str(k.value)]
        if name == "Library" and len(call.args) >= 2 and all(map(_is_str, call.args[:2])) \
                and call.args[1].value == "DEF":
            namespaces.append(call.args[0].value)
            continue
        for i, text in enumerate(args):
            found = _SCHEMA.match(text)
            if found is not None:
                ops.append((found.group(1) or "", found.group(2), call.lineno))
            elif i == 0 and name in _DEFINERS and _QUALIFIED.match(text):
                ns, _, op = text.partition("::")
                ops.append((ns, op, call.lineno))
    if len(namespaces) == 1:  # a schema without a namespace is its own library's
        ops = [(ns or namespaces[0], op, line) for ns, op, line in ops]
    return (tuple(namespaces), tuple(ops)) if namespaces or ops else ()


def _is_str(node) -> bool:
    return node.__class__ is ast.Constant and node.value.__class__ is str


def _called_name(func) -> str | None:
    if func.__class__ is ast.Name:
        return func.id
    if func.__class__ is ast.Attribute:
        return func.attr
    return None


def _top_level_calls(tree: ast.Module):
    """The calls module-level code makes when it runs: not in def or class bodies, not in
    lambdas; decorators of module-level defs included."""
    stack: list = list(tree.body)
    while stack:
        node = stack.pop()
        if node.__class__ in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            stack.extend(node.decorator_list)
            continue
        if node.__class__ is ast.Lambda:
            continue
        if node.__class__ is ast.Call:
            yield node
        stack.extend(ast.iter_child_nodes(node))


@dataclass(frozen=True, slots=True)
class OpTable:
    """A tree's definitions: the namespaces its Python code defines, and for each operator
    name the modules that define it, ((namespace or "", module, line), ...)."""

    namespaces: frozenset[str]
    definers: dict

    @classmethod
    def of(cls, defs) -> "OpTable":
        """`defs`: (module, what scan found) pairs."""
        namespaces: set[str] = set()
        definers: dict[str, list] = {}
        for module, (spaces, ops) in sorted(defs):
            namespaces.update(spaces)
            for ns, op, line in ops:
                definers.setdefault(op, []).append((ns, module, line))
        return cls(frozenset(namespaces), {k: tuple(v) for k, v in definers.items()})

    def key(self) -> str:
        """What results that read `torch.ops` depend on beyond the modules they create."""
        return repr((sorted(self.namespaces), sorted(self.definers.items())))

    def definers_of(self, namespace: str, op: str) -> tuple[tuple[str, int], ...]:
        """(module, line) of the definitions of `namespace::op` in the tree's Python code;
        () when the namespace is not one it defines, or no code of the tree spells the
        operator (it may be defined in C++, or by a schema built at run time)."""
        if namespace not in self.namespaces:
            return ()
        return tuple((module, line) for ns, module, line in self.definers.get(op, ())
                     if ns in ("", namespace))
