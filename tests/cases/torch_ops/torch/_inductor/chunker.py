import torch

prims = torch.ops.prims
ADD = torch.ops.aten.add
FMA = prims.fma  # prims.fma exists once torch._inductor.inductor_prims has run
