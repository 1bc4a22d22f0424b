from . import named, shapes, mixed
X = 1
