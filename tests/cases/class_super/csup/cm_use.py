from .cm import Child

X = Child.make()
