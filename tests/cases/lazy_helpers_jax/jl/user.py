import jl
from jl import alpha

V = alpha.VALUE + jl.alpha.VALUE
