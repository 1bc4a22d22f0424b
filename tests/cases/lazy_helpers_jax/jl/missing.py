from jl import nothing  # noqa: F401  (not listed: __getattr__ raises AttributeError)
