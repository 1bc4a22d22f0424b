# R20: __import__ of a %-formatted name with a fromlist: d runs now, before Z is bound.
__import__("%s.%s" % (__package__, "d"), fromlist=["Z"])
Z = 1
