# torch._inductor.cpp_builder's shape: the internal-only import never runs, because the
# analysed function in the condition returns a constant
from cf import config

if config.is_fbcode():
    from cf.fb.utils import use_global_cache  # noqa: F401  (no such module here)

VALUE = 1
