"""The pure-code evaluator (static/purefn.py): what it computes, and where it must refuse."""
import ast

import pytest

from importsafe.static import purefn


def _module(source: str):
    tree = ast.parse(source)
    funcs = {n.name: purefn.compile_function(n) for n in tree.body
             if isinstance(n, ast.FunctionDef)}
    data = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            data[node.targets[0].id] = node.value.value

    def resolve(scope, name):
        if funcs.get(name) is not None:
            return ("func", purefn.Function(funcs[name], scope))
        if name in data:
            return ("data", data[name])
        if name in purefn.BUILTINS:
            return ("func", purefn.BUILTINS[name])
        return None
    return funcs, resolve


def value(source: str, expr: str, env=None):
    _, resolve = _module(source)
    program = purefn.compile_expr(ast.parse(expr, mode="eval").body)
    assert program is not None
    return purefn.evaluate(program, resolve, None, env)


def test_recursive_cleanup_of_a_literal_table():
    source = (
        "def clean(d):\n"
        "    if isinstance(d, dict):\n"
        "        return {k: clean(v) for k, v in d.items() if v != '' and clean(v) != ''}\n"
        "    return d\n")
    got = value(source, "clean({'a': {'b': '', 'c': bool('False'.lower().replace('false', ''))},"
                        " 'd': ''})")
    assert got == {"a": {"c": False}}


def test_loops_appends_fstrings_and_defaults():
    source = (
        "def names(table, sep='-'):\n"
        "    out = []\n"
        "    for key, v in table.items():\n"
        "        if v is None:\n"
        "            continue\n"
        "        if key == 'stop':\n"
        "            break\n"
        "        out.append(f'{key}{sep}{v}')\n"
        "    out += ['end']\n"
        "    return out\n")
    assert value(source, "names({'a': 1, 'b': None, 'c': 'x', 'stop': 0, 'z': 2})") == \
        ["a-1", "c-x", "end"]


@pytest.mark.parametrize("source, expr", [
    # a set's iteration order is the process's hash seed's
    ("def first(s):\n    for x in s:\n        return x\n", "first({'a', 'b'})"),
    ("", "list({'a', 'b'})"),
    ("", "str({'a', 'b'})"),
    # mutating data the call did not make would change what the simulator keeps elsewhere
    ("def add(d):\n    d['x'] = 1\n    return d\n", "add(TABLE)"),
    ("def add(d):\n    d.update({'x': 1})\n    return d\n", "add(TABLE)"),
    # format fields that reach attributes or items
    ("", "'{0.__class__}'.format('x')"),
    ("", "'{0[0]}'.format('x')"),
    # identity of values that are not singletons is the interpreter's business
    ("", "'ab' is 'ab'"),
    # a float sum depends on the order of its terms; a huge string is refused
    ("", "sum([0.1, 0.2])"),
    ("", "'x' * 1000000000"),
    # exceptions: CPython raises, so there is no value
    ("", "{'a': 1}['b']"),
    ("", "1 // 0"),
    # calls of anything but pure functions and the listed builtins
    ("", "open('f')"),
    ("", "unknown_name"),
    ("def f(n):\n    return f(n + 1)\n", "f(0)"),
])
def test_refuses(source, expr):
    src = source + "TABLE = 1\n"  # a data global (a plain value: mutation refused anyway)
    with pytest.raises(purefn.NoValue):
        value(src, expr, {"TABLE": {"a": 1}} if "TABLE" in expr else None)


def test_mutation_of_foreign_data_is_refused():
    funcs, _ = _module("def add(d):\n    d['x'] = 1\n    return d\n")
    table = {"a": 1}

    def resolve(scope, name):
        if name == "add":
            return ("func", purefn.Function(funcs["add"], scope))
        if name == "TABLE":
            return ("data", table)
        return None
    program = purefn.compile_expr(ast.parse("add(TABLE)", mode="eval").body)
    with pytest.raises(purefn.NoValue):
        purefn.evaluate(program, resolve, None)
    assert table == {"a": 1}


def test_step_budget_ends_long_loops():
    source = ("def spin(n):\n    total = 0\n    for i in range(n):\n"
              "        for j in range(n):\n            total += 1\n    return total\n")
    with pytest.raises(purefn.NoValue):
        value(source, "spin(100000)")
    assert value(source, "spin(10)") == 100


@pytest.mark.parametrize("source", [
    "def f(x):\n    import os\n    return x\n",
    "def f(x):\n    print(x)\n    return x\n",
    "def f(x):\n    global Y\n    Y = x\n",
    "def f(*args):\n    return args\n",
    "def f(x):\n    return x.attr\n",
    "def f(x):\n    with x:\n        return 1\n",
    "def f(x):\n    try:\n        return x\n    except Exception:\n        return 0\n",
    "@decorated\ndef f(x):\n    return x\n",
])
def test_not_pure_code_is_not_compiled(source):
    node = ast.parse(source).body[0]
    assert purefn.compile_function(node) is None


def test_shadowed_builtins_are_not_called():
    # the resolver decides what a name is: a name that is not data, a pure function or a
    # builtin the resolver hands over has no value
    def resolve(scope, name):
        return None
    program = purefn.compile_expr(ast.parse("len('abc')", mode="eval").body)
    with pytest.raises(purefn.NoValue):
        purefn.evaluate(program, resolve, None)
