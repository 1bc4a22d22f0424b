# `globals()[f"Alias{i}"] = BASE` over a constant range binds Alias2, Alias3 to BASE, after the
# import above it: alias_cycle, imported first, reads Alias3 too early
BASE = 1
from dynnames.alias_cycle import helper  # noqa: E402,F401
for i in range(2, 4):
    globals()[f"Alias{i}"] = BASE
