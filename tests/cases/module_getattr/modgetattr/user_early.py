# R10: mid-cycle X is not bound in early, but early.__getattr__ supplies it: no error (wrong value).
from modgetattr.early import X

COPY = X
