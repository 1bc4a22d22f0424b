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


def test_lazy_imports_are_reported_unknown_until_modelled(tmp_path):
    write(tmp_path, {"lz/__init__.py": "", "lz/a.py": "lazy from . import b\nA = 1\n",
                     "lz/b.py": "from .a import A\n"})
    report = importsafe.check([tmp_path / "lz"])
    result = report.result("lz.a", "bare")
    assert result.outcome == "unknown" and "lazy" in result.reason
    assert not [d for d in report.diagnostics if d.code == "IS001"]


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
