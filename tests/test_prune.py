"""static/prune.py: a class body loses the bindings nothing in it reads (its methods, mostly),
and keeps every one it reads, or all of them when it holds a construct whose reads are not
named events."""
from __future__ import annotations

from importsafe.static.events import Bind, ClassBody, Def
from importsafe.static.facts import facts_from_source


def _class_bindings(source: str) -> list[str]:
    facts = facts_from_source(source.encode(), "m", "m.py", False)
    [body] = [ev.body for ev in facts.body if ev.__class__ is ClassBody]
    return [ev.name if ev.__class__ is Def else ",".join(ev.names)
            for ev in body if ev.__class__ in (Def, Bind)]


def test_unread_methods_and_bindings_are_dropped_read_ones_kept():
    source = (
        "class C:\n"
        "    def helper():\n        return 3\n"
        "    SIZE = helper()\n"
        "    AREA = len(LIMITS) * 2\n"
        "    @property\n    def value(self):\n        return 1\n"
        "    @value.setter\n    def value(self, new):\n        pass\n"
        "    def tmp(self):\n        pass\n"
        "    del tmp\n"
        "    def aliased(self):\n        pass\n"
        "    alias = aliased\n"
        "    def unused(self):\n        pass\n"
        "    @wrap\n    def gone(self):\n        pass\n"
        "    LIMIT = 10\n"
        "    class Inner:\n        x = LIMIT\n")
    kept = _class_bindings(source)
    assert "gone" not in kept and "AREA" not in kept  # read by nothing in the body
    assert "SIZE" in kept  # what a call returns may be an object with `__set_name__`
    assert "unused" in kept  # a method `C.unused()` replays (ClassBody.methods)
    # read later in the body (a nested class's read keeps it too: a harmless excess)
    assert {"helper", "value", "tmp", "aliased", "alias", "LIMIT"} <= set(kept)
    assert "Inner" in [ev.name for ev in facts_from_source(source.encode(), "m", "m.py", False)
                       .body[0].body if ev.__class__ is ClassBody]


def test_a_body_with_a_dynamic_construct_keeps_everything():
    source = ("class C:\n"
              "    def unused(self):\n        pass\n"
              "    X = 1\n"
              "    exec('y = X')\n")
    assert {"unused", "X"} <= set(_class_bindings(source))
