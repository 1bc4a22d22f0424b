import torch._prims
import torch

CONVERT = torch.ops.prims.convert
