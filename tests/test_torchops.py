"""torch.ops definitions found in a module's top-level code (static/torchops.py)."""
from importsafe.static.torchops import OpTable, scan


def test_library_and_schemas_of_top_level_calls():
    source = '''
"""Docs: lib.define("doc(Tensor x) -> Tensor") is only text."""
import torch
lib = torch.library.Library("mine", "DEF")
lib.define("scale(Tensor x, float s) -> Tensor")
make("other::shift.out(Tensor x) -> Tensor", impl=None)

def later():
    lib.define("inner(Tensor x) -> Tensor")

class Holder:
    lib.define("in_class(Tensor x) -> Tensor")

@torch.library.custom_op("mine::decorated", mutates_args=())
def decorated(x):
    return x

torch.library.define("third::qualified", "(Tensor x) -> Tensor")
torch._C._dispatch_has_kernel("aten::add")
'''
    spaces, ops = scan(source)
    assert spaces == ("mine",)
    assert sorted(ops) == [("mine", "decorated", 14), ("mine", "scale", 5),
                           ("other", "shift", 6), ("third", "qualified", 18)]


def test_nothing_to_find():
    assert scan("x = 1\ndef f() -> int:\n    return 1\n") == ()
    assert scan("lib.define('broken(') ->\n  (") == ()  # does not parse
    assert scan(b"\xff\xfe not text -> ::") == ()


def test_a_schema_without_namespace_belongs_to_any_defined_namespace():
    table = OpTable.of([("pkg.prims", (("prims",), (("prims", "convert", 3),))),
                        ("pkg.extra", ((), (("", "fma", 8),)))])
    assert table.definers_of("prims", "fma") == (("pkg.extra", 8),)
    assert table.definers_of("prims", "convert") == (("pkg.prims", 3),)
    assert table.definers_of("prims", "absent") == ()
    # a namespace no Python code defines is C++'s: nothing known of its operators
    assert table.definers_of("aten", "fma") == ()
    assert table.key() == OpTable.of(list(reversed([
        ("pkg.prims", (("prims",), (("prims", "convert", 3),))),
        ("pkg.extra", ((), (("", "fma", 8),)))]))).key()
