# R11: __import__("dynimp.f") returns the top package; f runs now.
top = __import__("dynimp.f")

E = "e"
