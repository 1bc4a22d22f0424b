import torch

EARLY = torch.ops.prims.early_op
