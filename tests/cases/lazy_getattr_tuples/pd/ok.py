from pd import Plain, plain_mod  # noqa: F401

x = plain_mod.X
