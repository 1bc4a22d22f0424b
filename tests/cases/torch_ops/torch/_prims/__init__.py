import torch
from torch.library import Library

prim = Library("prims", "DEF")


def _make_prim(schema):
    prim.define(schema)
    return schema.partition("(")[0]


convert = _make_prim("convert(Tensor a, ScalarType dtype) -> Tensor")
