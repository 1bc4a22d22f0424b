"""Deciding `if` tests statically: TYPE_CHECKING, `__name__ == "__main__"`, sys.version_info
against the target version, sys.platform / os.name against the platform importsafe runs on,
reads of environment variables (unset, as in the ordinary environment, unless given with
--env), and names bound to literals earlier in the module."""
from __future__ import annotations

import ast
import os
import sys

from .exprs import attr_chain

TargetVersion = tuple[int, int]

# builtin types an `isinstance` test in a function body may name (runtime_test)
SCALAR_TYPES = {"str": str, "bytes": bytes, "int": int, "float": float, "bool": bool,
                "complex": complex}
# stdlib types no literal is an instance of (`isinstance(name, types.ModuleType)` in a helper
# that takes a module or its name), as "module.Type"
CONCRETE_TYPES = frozenset({"types.ModuleType", "types.FunctionType", "types.MethodType",
                            "types.BuiltinFunctionType", "types.LambdaType", "types.CodeType",
                            "types.SimpleNamespace", "types.GeneratorType"})
NOT_ENV = object()  # env_read's answer for an expression that is not a read of the environment
_ENV_GETS = (("os", ("environ", "get")), ("os", ("getenv",)))
_ENVIRON = ("os", ("environ",))
NO_ENV: dict[str, str] = {}  # the ordinary environment: every variable unset


def env_read(node, env=NO_ENV) -> object:
    """What `os.environ.get(NAME[, default])` / `os.getenv(NAME[, default])` gives, else
    NOT_ENV: the value `env` (the variables given with --env) holds for NAME, or the default
    when NAME is unset. In the ordinary environment every variable is unset, so NAME may be
    any expression (its reads are the call's own events); with variables given it must be a
    literal."""
    if not isinstance(node, ast.Call) or node.keywords or not 1 <= len(node.args) <= 2 or \
            attr_chain(node.func) not in _ENV_GETS or isinstance(node.args[0], ast.Starred) or \
            len(node.args) == 2 and not isinstance(node.args[1], ast.Constant):
        return NOT_ENV
    default = node.args[1].value if len(node.args) == 2 else None
    if not env:
        return default
    name = _literal_name(node.args[0])
    return NOT_ENV if name is None else env.get(name, default)


def environ_item(node, env=NO_ENV) -> object:
    """`os.environ[NAME]` with NAME a literal: the value, None when the variable is unset
    (the read raises KeyError), else NOT_ENV."""
    if node.__class__ is not ast.Subscript or node.ctx.__class__ is not ast.Load or \
            attr_chain(node.value) != _ENVIRON:
        return NOT_ENV
    name = _literal_name(node.slice)
    return NOT_ENV if name is None else env.get(name)


def _literal_name(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) \
        else None


def env_names(node) -> frozenset[str]:
    """The variables an expression reads from the environment by literal name
    (`os.environ.get("X")`, `os.getenv("X")`, `"X" in os.environ`, `os.environ["X"]`)."""
    found = set()
    for sub in ast.walk(node):
        cls = sub.__class__
        if cls is ast.Call and sub.args and attr_chain(sub.func) in _ENV_GETS:
            name = _literal_name(sub.args[0])
        elif cls is ast.Subscript and attr_chain(sub.value) == _ENVIRON:
            name = _literal_name(sub.slice)
        elif cls is ast.Compare and len(sub.ops) == 1 and \
                isinstance(sub.ops[0], (ast.In, ast.NotIn)) and \
                attr_chain(sub.comparators[0]) == _ENVIRON:
            name = _literal_name(sub.left)
        else:
            continue
        if name is not None:
            found.add(name)
    return frozenset(found)


def maybe_evaluated(root, decide) -> set:
    """The subexpressions of `root` that evaluating it may skip: operands of `and` / `or`
    after the first and branches of conditional expressions (not decided statically),
    comprehension bodies, lambdas."""
    found: set = set()
    stack = [(root, False)]
    while stack:
        node, maybe = stack.pop()
        if maybe:
            found.add(node)
        cls = node.__class__
        if cls is ast.BoolOp:
            goes_on = "true" if isinstance(node.op, ast.And) else "false"
            for value in node.values:
                stack.append((value, maybe))
                maybe = maybe or decide(value)[0] != goes_on
            continue
        if cls is ast.IfExp and decide(node.test)[0] == "unknown":
            stack.extend(((node.test, maybe), (node.body, True), (node.orelse, True)))
            continue
        if cls in (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda):
            stack.extend((child, True) for child in ast.iter_child_nodes(node))
            continue
        stack.extend((child, maybe) for child in ast.iter_child_nodes(node))
    return found


def _env_test(test, env=NO_ENV) -> object:
    """A test made only of one environment read: its value, compared to a literal if it is
    (`os.environ.get("X") == "1"`, `"X" in os.environ`), else NOT_ENV."""
    value = env_read(test, env)
    if value is not NOT_ENV or not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return value
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(op, (ast.In, ast.NotIn)) and attr_chain(right) == _ENVIRON:
        if not env:
            return isinstance(op, ast.NotIn)
        name = _literal_name(left)
        return NOT_ENV if name is None else (name in env) != isinstance(op, ast.NotIn)
    value = env_read(left, env)
    if value is NOT_ENV:
        value = environ_item(left, env)
        if value is None:  # unset: the read raises KeyError before the test is decided
            return NOT_ENV
    if value is NOT_ENV or not isinstance(right, ast.Constant):
        return NOT_ENV
    if isinstance(op, (ast.Is, ast.IsNot)):
        return (value is right.value) == isinstance(op, ast.Is) if right.value is None \
            else NOT_ENV
    compare = _COMPARE.get(type(op))
    try:
        return compare(value, right.value) if compare is not None else NOT_ENV
    except TypeError:
        return NOT_ENV


_STR_METHODS = frozenset({"lower", "upper", "casefold", "strip", "lstrip", "rstrip", "replace",
                          "startswith", "endswith", "title", "capitalize"})
_FOLDED = (str, int, float, type(None))


def fold(node, consts=None, env=NO_ENV) -> object:
    """The value of a constant expression (literals, module-level names bound to literals or
    to environment reads taken as unset, string methods, `bool()`, `not`, `and` / `or`,
    `==` / `!=` / `in` / `not in`), else NOT_ENV: `USE_X = os.getenv("USE_X", "0")` then
    `USE_X.lower() in ("1", "true")` is False."""
    try:
        return _fold(node, consts or {}, 0, env)
    except (TypeError, ValueError, AttributeError):
        return NOT_ENV


def _fold(node, consts, depth, env):
    if depth > 20:
        return NOT_ENV
    cls = node.__class__
    if cls is ast.Constant:
        return node.value if isinstance(node.value, _FOLDED + (bool,)) else NOT_ENV
    if cls is ast.Name:
        # a bool in consts may stand for a decided test's truthiness: not a value to fold
        value = consts.get(node.id, NOT_ENV)
        return value if value is not NOT_ENV and value.__class__ in _FOLDED else NOT_ENV
    if cls in (ast.Tuple, ast.List, ast.Set):
        items = tuple(_fold(e, consts, depth + 1, env) for e in node.elts)
        return NOT_ENV if any(i is NOT_ENV for i in items) else items
    read = env_read(node, env)
    if read is NOT_ENV and cls is ast.Subscript:
        read = environ_item(node, env)
        read = NOT_ENV if read is None else read  # unset: KeyError, no value
    if read is not NOT_ENV:
        return read
    if cls is ast.UnaryOp and isinstance(node.op, ast.Not):
        value = _fold(node.operand, consts, depth + 1, env)
        return NOT_ENV if value is NOT_ENV else not value
    if cls is ast.BoolOp:
        values = [_fold(v, consts, depth + 1, env) for v in node.values]
        if any(v is NOT_ENV for v in values):
            return NOT_ENV
        result = values[0]
        for v in values[1:]:
            result = (result and v) if isinstance(node.op, ast.And) else (result or v)
        return result
    if cls is ast.Call and not node.keywords and not any(
            isinstance(a, ast.Starred) for a in node.args):
        args = [_fold(a, consts, depth + 1, env) for a in node.args]
        if any(a is NOT_ENV for a in args):
            return NOT_ENV
        func = node.func
        if isinstance(func, ast.Name) and func.id == "bool" and len(args) == 1 and \
                "bool" not in consts:
            return bool(args[0])
        if isinstance(func, ast.Attribute) and func.attr in _STR_METHODS:
            owner = _fold(func.value, consts, depth + 1, env)
            if isinstance(owner, str) and all(isinstance(a, (str, tuple)) for a in args):
                return getattr(owner, func.attr)(*args)
        return NOT_ENV
    if cls is ast.Compare and len(node.ops) == 1:
        left = _fold(node.left, consts, depth + 1, env)
        right = _fold(node.comparators[0], consts, depth + 1, env)
        if left is NOT_ENV or right is NOT_ENV:
            return NOT_ENV
        op = node.ops[0]
        if isinstance(op, (ast.In, ast.NotIn)):
            return (left in right) != isinstance(op, ast.NotIn) \
                if isinstance(right, (tuple, str)) else NOT_ENV
        if isinstance(op, (ast.Eq, ast.NotEq)):
            return (left == right) == isinstance(op, ast.Eq)
    return NOT_ENV


def decide_condition(test, target: TargetVersion, consts=None,
                     aliases: frozenset[str] = frozenset(), env=NO_ENV) -> tuple[str, str]:
    """Decide an `if` test statically: ("true"|"false"|"unknown", why). `consts` maps
    module-level names to the truth value they are known to hold; `aliases` are other names
    of TYPE_CHECKING (`from typing import TYPE_CHECKING as _TC`); `env` the environment
    variables given (--env), every other one unset."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        cond, why = decide_condition(test.operand, target, consts, aliases, env)
        return {"true": "false", "false": "true"}.get(cond, cond), why
    chain = attr_chain(test)
    if chain is not None and (chain[1][-1:] == ("TYPE_CHECKING",) or (not chain[1] and (
            chain[0] == "TYPE_CHECKING" or chain[0] in aliases))):
        return "false", "TYPE_CHECKING"
    if isinstance(test, ast.Constant):
        return ("true" if test.value else "false"), "constant"
    if isinstance(test, ast.Name) and consts and test.id in consts:
        return ("true" if consts[test.id] else "false"), "constant"
    read = _env_test(test, env)
    if read is not NOT_ENV:
        return ("true" if read else "false"), "environment"
    if isinstance(test, (ast.Call, ast.Compare)):
        value = fold(test, consts, env)
        if value is not NOT_ENV:
            return ("true" if value else "false"), "constant"
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and consts \
            and isinstance(test.left, ast.Name) and consts.get(test.left.id, False) is None \
            and isinstance(test.comparators[0], ast.Constant) \
            and test.comparators[0].value is None and type(test.ops[0]) in (ast.Is, ast.IsNot):
        # only a literal None or an unset variable's None is kept as None (decided tests
        # keep a bool, which may stand for a falsy value that is None)
        return ("true" if isinstance(test.ops[0], ast.Is) else "false"), "constant"
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and consts \
            and isinstance(test.left, ast.Name) and test.left.id in consts \
            and isinstance(test.comparators[0], ast.Constant) \
            and type(test.ops[0]) in (ast.Eq, ast.NotEq):
        same = consts[test.left.id] == test.comparators[0].value
        return ("true" if same == isinstance(test.ops[0], ast.Eq) else "false"), "constant"
    if isinstance(test, ast.BoolOp):
        parts = [decide_condition(v, target, consts, aliases, env) for v in test.values]
        conds = [c for c, _ in parts]
        why = "TYPE_CHECKING" if any(w == "TYPE_CHECKING" for _, w in parts) else "bool"
        if isinstance(test.op, ast.And):
            if "false" in conds:
                return "false", why
            return ("true" if all(c == "true" for c in conds) else "unknown"), why
        if "true" in conds:
            return "true", why
        return ("false" if all(c == "false" for c in conds) else "unknown"), why
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        return _decide_compare(test, target)
    if isinstance(test, ast.Call) and attr_chain(test.func) == ("sys", ("platform", "startswith")) \
            and len(test.args) == 1 and isinstance(test.args[0], ast.Constant) \
            and isinstance(test.args[0].value, (str, tuple)):
        return ("true" if sys.platform.startswith(test.args[0].value) else "false"), "platform"
    return "unknown", ""


def _decide_compare(test, target) -> tuple[str, str]:
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if attr_chain(left) == ("__name__", ()) and isinstance(right, ast.Constant) \
            and right.value == "__main__":
        return ("false" if isinstance(op, ast.Eq) else "true"), "__main__"
    lchain = attr_chain(left.value if isinstance(left, ast.Subscript) else left)
    if lchain == ("sys", ("version_info",)):
        return _decide_version(left, op, right, target)
    if lchain in (("sys", ("version_info", "major")), ("sys", ("version_info", "minor"))):
        field = ast.Constant(0 if lchain[1][1] == "major" else 1)
        subscript = ast.Subscript(ast.Attribute(ast.Name("sys"), "version_info"), field)
        return _decide_version(subscript, op, right, target)
    if lchain in (("sys", ("platform",)), ("os", ("name",))) and isinstance(right, ast.Constant):
        same = (sys.platform if lchain[0] == "sys" else os.name) == right.value
        if isinstance(op, (ast.Eq, ast.NotEq)):
            return ("true" if same == isinstance(op, ast.Eq) else "false"), "platform"
    return "unknown", ""


_COMPARE = {ast.GtE: lambda a, b: a >= b, ast.Gt: lambda a, b: a > b,
            ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
            ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b}


def _decide_version(left, op, right, target) -> tuple[str, str]:
    """`sys.version_info >= (3, 8)`, `sys.version_info[:2] < (3, 10)`, `sys.version_info[0] == 3`
    against the target version."""
    try:
        want = ast.literal_eval(right)
    except ValueError:
        return "unknown", ""
    have: object = tuple(target[:2]) + (0, "final", 0)
    if isinstance(left, ast.Subscript):
        try:
            index = ast.literal_eval(left.slice) if not isinstance(left.slice, ast.Slice) else \
                slice(*(ast.literal_eval(p) if p is not None else None
                        for p in (left.slice.lower, left.slice.upper, left.slice.step)))
            have = have[index]
        except (ValueError, TypeError, IndexError):
            return "unknown", ""
    fn = _COMPARE.get(type(op))
    if fn is None or type(have) is not type(want):
        return "unknown", ""
    try:
        return ("true" if fn(have, want) else "false"), "version"
    except TypeError:
        return "unknown", ""


def runtime_test(node, fallback=None, env=NO_ENV) -> tuple | None:
    """An `if` test in a form the simulator can decide when it runs, from the call's
    arguments: names, literals, not / and / or, `name is / == literal`, `name in literal`
    and `isinstance(name, builtin scalar types or CONCRETE_TYPES)`; and calls without
    arguments of analysed functions that return a constant. Any other test (or operand of
    not / and / or) is
    `fallback(node)`'s program, as ("eval", program), when it gives one."""
    found = _runtime_test(node, fallback, env)
    if found is None and fallback is not None:
        program = fallback(node)
        return ("eval", program) if program is not None else None
    return found


_FIND_SPEC = frozenset({("importlib", ("util", "find_spec")), ("util", ("find_spec",)),
                        ("find_spec", ())})


def _module_test(node, fallback) -> tuple | None:
    """("module", how, program, negate) for `sys.modules.get(X[, None]) is not None` (how
    "loaded"), `X in sys.modules` ("loaded"), `importlib.util.find_spec(X) is not None`
    ("exists"), also with the call under a walrus, X a purefn program; else None."""
    if not isinstance(node, ast.Compare) or len(node.ops) != 1 or fallback is None:
        return None
    left, op, right = node.left, node.ops[0], node.comparators[0]
    if isinstance(op, (ast.In, ast.NotIn)) and attr_chain(right) == ("sys", ("modules",)):
        program = fallback(left)
        return ("module", "loaded", program, isinstance(op, ast.NotIn)) if program else None
    if not isinstance(op, (ast.Is, ast.IsNot)) or not (
            isinstance(right, ast.Constant) and right.value is None):
        return None
    call = left.value if isinstance(left, ast.NamedExpr) else left
    if not isinstance(call, ast.Call) or call.keywords or not call.args or \
            isinstance(call.args[0], ast.Starred):
        return None
    chain = attr_chain(call.func)
    if chain == ("sys", ("modules", "get")) and (len(call.args) == 1 or len(call.args) == 2 and
                                                 isinstance(call.args[1], ast.Constant) and
                                                 call.args[1].value is None):
        how = "loaded"
    elif chain in _FIND_SPEC and len(call.args) == 1:
        how = "exists"
    else:
        return None
    program = fallback(call.args[0])
    # `is not None` holds when the module is there: negate for `is None`
    return ("module", how, program, isinstance(op, ast.Is)) if program else None


def _runtime_test(node, fallback, env) -> tuple | None:
    found = _module_test(node, fallback)
    if found is not None:
        return found
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
            isinstance(node.ops[0], (ast.In, ast.NotIn)) and \
            isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
        box = node.comparators[0]  # `"NAME" in globals()`: is the global bound now?
        if isinstance(box, ast.Call) and isinstance(box.func, ast.Name) and \
                box.func.id == "globals" and not box.args and not box.keywords:
            return ("global", node.left.value, isinstance(node.ops[0], ast.NotIn))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "hasattr" and len(node.args) == 2 and not node.keywords and \
            isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
        chain = attr_chain(node.args[0])  # `hasattr(module, "NAME")`
        if chain is not None:
            return ("hasattr", chain[0], chain[1], node.args[1].value)
    if isinstance(node, ast.Name):
        return ("name", node.id)
    if isinstance(node, ast.Attribute):  # `if other_module.FLAG:`, read when it runs
        chain = attr_chain(node)
        if chain is not None:
            return ("attr", chain[0], chain[1])
    if isinstance(node, ast.Constant):
        return ("const", node.value)
    read = _env_test(node, env)
    if read is not NOT_ENV:
        return ("const", read)
    if isinstance(node, ast.Call) and not node.args and not node.keywords:
        chain = attr_chain(node.func)  # an analysed function that returns a constant
        if chain is not None:
            return ("call", chain[0], chain[1])
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = runtime_test(node.operand, fallback, env)
        return ("not", inner) if inner is not None else None
    if isinstance(node, ast.BoolOp):  # an operand we cannot read may not matter
        parts = tuple(runtime_test(v, fallback, env) or ("unknown",) for v in node.values)
        return ("and" if isinstance(node.op, ast.And) else "or", parts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "isinstance" and len(node.args) == 2 and not node.keywords and \
            isinstance(node.args[0], ast.Name):
        types = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
        names = tuple(t.id if isinstance(t, ast.Name) else ".".join(
            (chain[0], *chain[1])) if (chain := attr_chain(t)) is not None else "" for t in types)
        if names and all(n in SCALAR_TYPES or n in CONCRETE_TYPES for n in names):
            return ("isinstance", node.args[0].id, names)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
            isinstance(node.left, ast.Name) and isinstance(node.comparators[0], ast.Constant):
        op = {ast.Is: "is", ast.IsNot: "is not", ast.Eq: "==", ast.NotEq: "!="}.get(
            type(node.ops[0]))
        if op is not None:
            return ("cmp", op, node.left.id, node.comparators[0].value)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
            isinstance(node.left, ast.Attribute) and isinstance(node.comparators[0], ast.Constant):
        op = {ast.Is: "is", ast.IsNot: "is not", ast.Eq: "==", ast.NotEq: "!="}.get(
            type(node.ops[0]))
        chain = attr_chain(node.left)  # `cls.kind is not None`, read when it runs
        if op is not None and chain is not None:
            return ("acmp", op, chain[0], chain[1], node.comparators[0].value)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
            isinstance(node.ops[0], (ast.Is, ast.IsNot)) and \
            isinstance(node.comparators[0], ast.Name) and node.comparators[0].id == "object":
        # `cls.__bases__[0] is object` in a metaclass: is the class made a direct one?
        left = node.left
        if isinstance(left, ast.Subscript) and isinstance(left.slice, ast.Constant) and \
                left.slice.value == 0 and isinstance(left.value, ast.Attribute) and \
                left.value.attr == "__bases__" and isinstance(left.value.value, ast.Name):
            return ("bases0", left.value.value.id, isinstance(node.ops[0], ast.IsNot))
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
            isinstance(node.left, ast.Name) and isinstance(node.ops[0], (ast.In, ast.NotIn)):
        box = node.comparators[0]
        negate = isinstance(node.ops[0], ast.NotIn)
        if isinstance(box, ast.Name):  # a module-level literal dict, when the call runs
            return ("in", node.left.id, ("name", box.id), negate)
        if isinstance(box, (ast.Tuple, ast.List, ast.Set)) and all(
                isinstance(e, ast.Constant) for e in box.elts):
            return ("in", node.left.id, ("values", tuple(e.value for e in box.elts)), negate)
    return None


def narrowing(test) -> tuple | None:
    """What a true `if` test tells of strings: ((name, prefix, suffix), ...) from
    `name.startswith("p")` / `name.endswith("s")` tests, alone or joined by `and` (the body
    runs only when each of them held); None when it tells nothing."""
    if any(isinstance(n, ast.NamedExpr) for n in ast.walk(test)):
        return None  # a name the test rebinds may not hold what it tested
    found: dict[str, list[str]] = {}
    for node in test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) \
            else (test,):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and
                node.func.attr in ("startswith", "endswith") and
                isinstance(node.func.value, ast.Name) and len(node.args) == 1 and
                not node.keywords and isinstance(node.args[0], ast.Constant) and
                isinstance(node.args[0].value, str)):
            continue
        affix = found.setdefault(node.func.value.id, ["", ""])
        text = node.args[0].value
        if node.func.attr == "startswith":
            affix[0] = text if len(text) > len(affix[0]) else affix[0]
        else:
            affix[1] = text if len(text) > len(affix[1]) else affix[1]
    return tuple((name, p, s) for name, (p, s) in found.items()) or None
