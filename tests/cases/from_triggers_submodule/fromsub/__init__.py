# R5: a package attribute named like a submodule; `from fromsub import c` returns it, c.py never runs.
c = "plain attribute named c"
