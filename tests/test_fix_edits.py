"""The fixer's edits of one statement (fix/edits.py, fix/refs.py): for each scoping rule, which
edit (or why none), and the edited module run by CPython, every function called, to show the
edit kept its behaviour; comments other than tool directives survive every edit."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap

import pytest

from importsafe.fix.edits import (
    DEFER, MODULE_IMPORT, TYPE_CHECKING_ONLY, Edit, NoEdit, edit_statement, module_import_edit,
)

DEP = '''
A = 1
B = 2
L = [1, 2]


def deco(f):
    return f
'''

# name -> (module source, line of the statement, expected kind or a NoEdit reason's words,
#          functions CPython calls after the edit, the edit maker)
CASES = {
    "dotted import read while the module runs": ('''
        import os.path
        X = os.path.join("a", "b")
        def f():
            return os.path.sep
        ''', 1, "used while the module runs (os)", [], edit_statement),
    "dotted import read in a function": ('''
        import os.path
        def f():
            return os.path.join("a", "b")
        ''', 1, DEFER, ["f"], edit_statement),
    "class body inside a function runs when it is called": ('''
        from .d import A
        def f():
            class K:
                x = A
            return K.x
        ''', 1, DEFER, ["f"], edit_statement),
    "a lambda at module level cannot hold the import": ('''
        from .d import A
        g = lambda: A
        ''', 1, "used while the module runs (A)", [], edit_statement),
    "a default runs with the def": ('''
        from .d import A
        def f(x=A):
            return x
        ''', 1, "used while the module runs (A)", [], edit_statement),
    "a decorator runs with the def": ('''
        from .d import deco
        @deco
        def f():
            return 1
        ''', 1, "used while the module runs (deco)", [], edit_statement),
    "a comprehension's first iterable runs where it stands": ('''
        from .d import L
        Y = [x for x in L]
        ''', 1, "used while the module runs (L)", [], edit_statement),
    "a comprehension in a function": ('''
        from .d import L
        def f():
            return [x for x in L]
        ''', 1, DEFER, ["f"], edit_statement),
    "a class body reading the global before binding its own": ('''
        from .d import A
        class K:
            A = A
        ''', 1, "used while the module runs (A)", [], edit_statement),
    "a comprehension in a class body skips the class scope": ('''
        from .d import A
        class K:
            Y = [A for _ in range(2)]
        ''', 1, "used while the module runs (A)", [], edit_statement),
    "string annotations are never evaluated": ('''
        from .d import A
        def f(x: "A" = 1) -> "A":
            return x
        ''', 1, TYPE_CHECKING_ONLY, ["f"], edit_statement),
    "annotations under the future import are never evaluated": ('''
        from __future__ import annotations
        from .d import A
        def f(x: A = 1) -> A:
            return x
        ''', 2, TYPE_CHECKING_ONLY, ["f"], edit_statement),
    "a nested def's annotation runs when the outer function does": ('''
        from .d import A
        def f():
            def g(x: A):
                return x
            return g(1)
        ''', 1, DEFER, ["f"], edit_statement),
    "a name some function rebinds with global": ('''
        from .d import A
        def f():
            global A
            A = 2
        def g():
            return A
        ''', 1, "used while the module runs (A)", [], edit_statement),
    "del at module level": ('''
        from .d import A
        del A
        ''', 1, "used while the module runs (A)", [], edit_statement),
    "one name of a parenthesised statement": ('''
        from .d import (
            A,  # noqa: F401
            B,  # kept: only f reads B
        )
        X = A
        def f():
            return B
        ''', 1, DEFER, ["f"], edit_statement),
    "after the docstring, above the comments that lead the body": ('''
        from .d import A  # A is read late


        def f():
            """Doc."""
            # the lead comment
            return A
        ''', 1, DEFER, ["f"], edit_statement),
    "the only statement of a block leaves a pass": ('''
        import sys
        if sys.version_info >= (3,):
            from .d import A
        def f():
            return A
        ''', 3, DEFER, ["f"], edit_statement),
    "a statement sharing its line": ('''
        from .d import A; X = 1
        def f():
            return A
        ''', 1, "shares its line", [], edit_statement),
    "a one-line function suite (written by libcst)": ('''
        from .d import A
        def f(): return A
        ''', 1, DEFER, ["f"], edit_statement),
    "one name under TYPE_CHECKING, the other stays": ('''
        from .d import A, B
        X = A
        def f(x: "B" = 1):
            return x
        ''', 1, TYPE_CHECKING_ONLY, ["f"], edit_statement),
    "the module instead of its name": ('''
        from .d import A
        def f():
            return A + 1
        ''', 1, MODULE_IMPORT, ["f"], module_import_edit),
    "the module's name is taken": ('''
        from .d import A
        d = 3
        def f():
            return A + d
        ''', 1, "already a name", [], module_import_edit),
    "a read inside an f-string": ('''
        from .d import A
        def f():
            return f"{A}"
        ''', 1, "f-string", [], module_import_edit),
}

_DIRECTIVE = re.compile(r"#\s*noqa", re.I)


def _comments(text: str) -> list[str]:
    return [c for c in re.findall(r"#[^\n]*", text) if not _DIRECTIVE.match(c)]


def _run(root, module: str, calls) -> str:
    code = f"import p.{module} as m\n" + "".join(f"print(repr(m.{c}()))\n" for c in calls)
    proc = subprocess.run([sys.executable, "-S", "-B", "-c", code], cwd=root,
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("name", sorted(CASES))
def test_edit_keeps_behaviour_in_cpython(name, tmp_path):
    source, line, expected, calls, make = CASES[name]
    text = textwrap.dedent(source).lstrip("\n")
    edit = make(text, line)
    if expected in (DEFER, TYPE_CHECKING_ONLY, MODULE_IMPORT):
        assert isinstance(edit, Edit), edit
        assert edit.kind == expected
        ast.parse(edit.new_text)
        assert _comments(edit.new_text) == _comments(text)
    else:
        assert isinstance(edit, NoEdit) and expected in edit.reason, edit
        return
    pkg = tmp_path / "p"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "d.py").write_text(DEP)
    (pkg / "m.py").write_text(text)
    before = _run(tmp_path, "m", calls)
    (pkg / "m.py").write_text(edit.new_text)
    assert _run(tmp_path, "m", calls) == before


def test_crlf_file_keeps_its_line_ends():
    text = "from .d import A\r\n\r\ndef f():\r\n    return A\r\n"
    edit = edit_statement(text, 1)
    assert isinstance(edit, Edit) and edit.kind == DEFER
    assert edit.new_text == "\r\ndef f():\r\n    from .d import A\r\n    return A\r\n"


def test_long_import_is_wrapped_one_name_per_line():
    names = [f"name_{i:02d}" for i in range(12)]
    text = f"from .d import {', '.join(names)}\n\ndef f():\n    return [{', '.join(names)}]\n"
    edit = edit_statement(text, 1)
    assert isinstance(edit, Edit)
    assert "    from .d import (\n" + "".join(f"        {n},\n" for n in names) + "    )\n" \
        in edit.new_text
    ast.parse(edit.new_text)
