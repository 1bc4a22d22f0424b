"""The library helpers modelled by their documented semantics (static/helpers.py): which calls
are modelled, and what the module __getattr__ they stand for answers."""
import ast

from importsafe.static.helpers import lazy_attach


def _call(source: str) -> ast.Call:
    return ast.parse(source).body[0].value


def _answers(made) -> dict:
    """name -> what the generated __getattr__ does for it (the import it makes, or 'return')."""
    out = {}
    for stmt in made[0].body:
        if isinstance(stmt, ast.If):
            first = stmt.body[0]
            out[stmt.test.comparators[0].value] = first.names[0].name \
                if isinstance(first, ast.Import) else "return"
    return out


def test_relative_import_resolves_like_import_module():
    made = lazy_attach(_call('relative_import(__name__, [".sub", ".a.deep"], '
                             '["._core.Core", "..up.Up", "._core.sub"])'),
                       "relative_import", "pkg", None, "pkg.mod")
    assert _answers(made) == {"sub": "pkg.mod.sub", "deep": "pkg.mod.a.deep",
                              "Core": "pkg.mod._core", "Up": "pkg.up"}
    # __all__ as the helper builds it: the module names, then the class names, each listed
    assert made[1] == ("sub", "deep", "Core", "Up", "sub")


def test_relative_import_later_entry_of_a_name_wins():
    made = lazy_attach(_call('relative_import(__name__, [], ["._a.X", "._b.X"])'),
                       "relative_import", "p", None, "p")
    assert _answers(made) == {"X": "p._b"} and made[1] == ("X",)


def test_relative_import_not_modelled():
    for source in ('relative_import("other", [".a"], [])',  # not the caller's own name
                   'relative_import(__name__, MODULES, [])',  # not literal
                   'relative_import(__name__, ["...a"], [])',  # beyond the top-level package
                   'relative_import(__name__, [], ["Bare"])',  # import_module("") raises
                   'relative_import(__name__, [], [], [])'):
        assert lazy_attach(_call(source), "relative_import", "p", None, "p.m") is None, source


def test_deprecate_attr_tables():
    made = lazy_attach(_call('deprecate_attr(__name__, remove={"A": (X, "1")}, '
                             'rename={"B": (Y, "2")})'), "deprecate_attr", "p", None, "p.m")
    assert _answers(made) == {"A": "return", "B": "return"}
    made = lazy_attach(_call('deprecate_attr(__name__, None, {"B": (Y, "2")})'),
                       "deprecate_attr", "p", None, "p.m")
    assert _answers(made) == {"B": "return"}


def test_deprecate_attr_not_modelled():
    for source in ('deprecate_attr(__name__, remove={"A": 1}, rename={"A": 2})',  # ValueError
                   'deprecate_attr(__name__, remove=TABLE)',
                   'deprecate_attr(__name__, remove={**other})',
                   'deprecate_attr(__name__, other={"A": 1})'):
        assert lazy_attach(_call(source), "deprecate_attr", "p", None, "p.m") is None, source
