"""configparser parsers in pure code (static/configfiles.py): files read as listed at check
time, values as CPython's configparser gives them, and no value where that cannot be known."""
import ast
import os
import textwrap
import time

import pytest

from importsafe import api
from importsafe.static.discover import DirListing, MAX_CONFIG_BYTES, read_listing
from importsafe.static.dirlisting import Listings, StdFunction
from importsafe.static.purefn import BUILTINS, Function, NoValue, compile_function, evaluate

INI = b"[DEFAULT]\nkind = reader\n\n[alpha]\nprovides = read, write\nlabel = %(kind)s one\n" \
      b"on = yes\n"


def _call(body: str, listing: DirListing, allowed: str = "/d"):
    listings = Listings({"/d": listing})
    names = {name: ("func", StdFunction(name, listings, allowed)) for name in (
        "configparser.ConfigParser", "configparser.RawConfigParser", "os.path.join")}
    node = ast.parse("def f():\n" + textwrap.indent(textwrap.dedent(body), "    ")).body[0]
    program = compile_function(node)
    assert program is not None, "the body should compile as pure code"
    function = Function(program, None)

    def resolve(scope, name):
        if name == "f":
            return ("func", function)
        if name in names:
            return names[name]
        return ("func", BUILTINS[name]) if name in BUILTINS else None

    return evaluate(("call", "f", (), ()), resolve, None)


LISTING = DirListing("/d", (("a.ini", "f"), ("big.ini", "f"), ("sub", "d")), False,
                     texts=(("a.ini", INI),))


def test_values_are_configparsers():
    assert _call("""\
        p = configparser.ConfigParser()
        p.read("/d/a.ini")
        return p.sections(), p.options("alpha"), p.get("alpha", "label"), \\
            p.getboolean("alpha", "on"), p.get("alpha", "missing", fallback="x")
        """, LISTING) == (["alpha"], ["provides", "label", "on", "kind"], "reader one", True,
                          "x")


def test_raw_parser_does_not_interpolate_and_missing_files_are_skipped():
    assert _call("""\
        p = configparser.RawConfigParser()
        found = p.read(["/d/a.ini", "/d/absent.ini", "/d/sub"], encoding="utf-8")
        return found, p.get("alpha", "label")
        """, LISTING) == (["/d/a.ini"], "%(kind)s one")


@pytest.mark.parametrize("body", [
    # a file the listing did not keep the bytes of
    'p = configparser.ConfigParser()\np.read("/d/big.ini")\nreturn p.sections()',
    # another directory than the module's own
    'p = configparser.ConfigParser()\np.read("/elsewhere/a.ini")\nreturn p.sections()',
    # a relative path: relative to the working directory, not known
    'p = configparser.ConfigParser()\np.read("a.ini")\nreturn p.sections()',
    # configparser raises: NoSectionError
    'p = configparser.ConfigParser()\np.read("/d/a.ini")\nreturn p.get("beta", "x")',
    # an interpolation error
    'p = configparser.ConfigParser()\np.read_string("[s]\\nx = %(nope)s\\n")\n'
    'return p.get("s", "x")',
    # arguments that are no plain data
    'p = configparser.ConfigParser(interpolation=None)\nreturn p.sections()',
])
def test_what_is_not_known_is_no_value(body):
    with pytest.raises(NoValue):
        _call(body, LISTING)


def test_a_parser_is_not_kept_beyond_its_evaluation():
    from importsafe.static.callreplay import _to_sim
    from importsafe.static.configfiles import new_parser
    parser = new_parser("configparser.ConfigParser", (), {}, None, None)
    assert _to_sim(parser, 0) == ("v",) and _to_sim([parser], 0) == ("v",)


def test_listing_keeps_small_config_files_only(tmp_path):
    (tmp_path / "a.ini").write_bytes(INI)
    (tmp_path / "big.cfg").write_bytes(b"#" * (MAX_CONFIG_BYTES + 1))
    (tmp_path / "m.py").write_text("")
    os.mkfifo(tmp_path / "pipe.ini")  # never opened for reading: the check must not hang
    found = read_listing(str(tmp_path))
    assert found.texts == (("a.ini", INI),)
    assert found.text("a.ini") == INI and found.text("big.cfg") is None


SCANNER = '''\
import os
from configparser import ConfigParser


def _names():
    parser = ConfigParser()
    parser.read(os.path.join(os.path.dirname(__file__), "plugins.ini"))
    return [parser.get("plugins", key) for key in parser.options("plugins")]


for _name in _names():
    __import__("cfgscan." + _name)
'''


def test_an_edit_of_the_config_file_changes_the_answer(tmp_path):
    pkg = tmp_path / "cfgscan"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(SCANNER)
    (pkg / "good.py").write_text("X = 1\n")
    (pkg / "plugins.ini").write_text("[plugins]\nfirst = good\n")
    cache = str(tmp_path / "cache")
    check = lambda: api.check([str(pkg)], modes=("normal",), cache_dir=cache).result(  # noqa: E731
        "cfgscan", "normal")
    assert check().outcome == "ok"
    time.sleep(0.01)
    (pkg / "plugins.ini").write_text("[plugins]\nfirst = missing\n")
    result = check()
    assert result.outcome == "error" and result.error.exception == "ModuleNotFoundError"
