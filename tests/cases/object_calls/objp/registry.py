from .loader import Registry

r = Registry()
r.add("objp.plain")
r.import_all()
REG = 1
