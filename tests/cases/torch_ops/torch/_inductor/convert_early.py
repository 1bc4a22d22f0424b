import torch

CONVERT = torch.ops.prims.convert
import torch._prims  # noqa: E402 - too late for the read above
