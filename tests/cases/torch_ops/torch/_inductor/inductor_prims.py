from torch import _prims


def make_prim(schema):
    return _prims._make_prim(schema)


fma = make_prim("fma(Tensor a, Tensor b, Tensor c) -> Tensor")
