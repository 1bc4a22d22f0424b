import dn.base

delattr(dn.base, "X")
value = dn.base.X
