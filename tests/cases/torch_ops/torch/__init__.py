from torch._ops import ops as ops
from torch import library as library
