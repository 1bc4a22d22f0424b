import torch
from torch._inductor import inductor_prims  # noqa: F401 - defines prims.fma

aten = torch.ops.aten
prims = torch.ops.prims
FMA = prims.fma
ADD = aten.add
