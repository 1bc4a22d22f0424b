import sa.base

setattr(sa.base, "C", 3)
print_me = sa.base.C
