from . import tables, named, shapes, mixed
X = 1
