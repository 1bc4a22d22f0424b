"""Source written for any Python 3 is analysed on the running interpreter (3.11+)."""
import importsafe
from importsafe.static.events import Import, ImportFrom
from importsafe.static.facts import facts_from_source
from test_cli import write


def test_lazy_imports_parse_and_are_marked_lazy():
    src = b"import os\nlazy import json\nlazy from collections import OrderedDict as OD\n"
    facts = facts_from_source(src, "m", "m.py", False)
    assert facts.problem is None
    lazy = {(e.__class__, e.line, e.lazy) for e in facts.body if isinstance(e, (Import,
                                                                             ImportFrom))}
    assert lazy == {(Import, 1, False), (Import, 2, True), (ImportFrom, 3, True)}


def test_explicit_lazy_imports_are_analysed_on_this_interpreter(tmp_path):
    """`lazy from . import b` (3.15 syntax) is lazy in every mode (docs/lazy.md L2): the
    cycle a <-> b that fails eagerly works, and nothing reports a syntax error."""
    write(tmp_path, {"lz/__init__.py": "", "lz/a.py": "lazy from . import b\nA = 1\n",
                     "lz/b.py": "from .a import A\n"})
    report = importsafe.check([tmp_path / "lz"])
    assert [r.outcome for r in report.results] == ["ok"] * len(report.results)
    assert not [d for d in report.diagnostics if d.code == "IS001"]
    (tmp_path / "lz" / "a.py").write_text("from . import b\nA = 1\n")
    eager = importsafe.check([tmp_path / "lz"])
    assert eager.result("lz.a", "bare").outcome == "error"


def test_type_parameters_are_bound_inside_their_definition():
    src = (b"import functools\n@functools.cache\ndef f[T](x: T) -> list[T]:\n    return [x]\n"
           b"class C[K, V](dict[K, V]):\n    key: K\ntype Alias[T] = list[T]\n")
    facts = facts_from_source(src, "m", "m.py", False)
    assert facts.problem is None
    names = {e.name for e in facts.body if hasattr(e, "name") and e.__class__.__name__ == "Use"}
    assert not names & {"T", "K", "V"}


def test_a_file_no_parser_accepts_is_a_syntax_error():
    facts = facts_from_source(b"def (:\n", "m", "m.py", False)
    assert facts.problem is not None and facts.problem.code == "IS001"


def test_a_return_that_ends_a_function_body_is_left_out():
    """Falling off the end and a final `return` end a call alike: the final Exit is dropped
    (one exception fewer per call at import time); a final `raise` stays, with what it raises
    (a module __getattr__ replayed tells raising AttributeError from answering); an Exit
    inside a branch stays, since what follows the branch may not run."""
    from importsafe.static.events import Exit, If, Use
    from importsafe.static.state import functions_of
    src = (b"def f(x):\n    setattr(x, 'a', 1)\n    return x\n"
           b"def g(x):\n    if x:\n        return 1\n    import os\n    raise ValueError\n")
    functions = functions_of(facts_from_source(src, "m", "m.py", False).body)
    f, g = functions[("f", 1)], functions[("g", 4)]
    assert f.body and not any(ev.__class__ is Exit for ev in f.body)
    assert [ev.__class__ for ev in g.body] == [Use, If, Import, Use, Exit]  # x, ..., ValueError
    assert g.body[-1].exception == "ValueError"
    assert g.body[1].body[-1].__class__ is Exit


def test_text_scans_find_words_only_where_they_start():
    from importsafe.static.facts import declared_global, indented_imports
    source = ("def f():\n    myglobal = 1\n    global a, b\n\nxglobal c, global d\n"
              "def g():\n    nonlocal_ = 2\n    nonlocal e\n")
    assert declared_global(source) == {"a", "b", "d", "e"}
    assert indented_imports("import os\nif x:\n    import json, re as r\n"
                            "def f():\n\tfrom . import sib\n", "pkg.mod", False) >= \
        {"json", "re", "pkg.*"}
    assert "os" not in indented_imports("import os\n", "pkg.mod", False)
