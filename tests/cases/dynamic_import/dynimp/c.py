# R11: __import__ at top level runs d now; X is bound before that.
X = "c"

__import__("dynimp.d")
