import jl

X = jl.beta.VALUE  # __getattr__("beta") imports jl.beta, or returns it while it runs
LATE = 1
