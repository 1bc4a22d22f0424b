from .loader import Registry

r = Registry()
r.add("objp.registry_reader")
r.import_all()
REG = 1
