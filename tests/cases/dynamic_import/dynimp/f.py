# R11: __import__ returns dynimp; dynimp.e is not bound on it while e runs -> AttributeError.
top = __import__("dynimp.e")

F = top.e.E
