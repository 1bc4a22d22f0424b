# R10: mid-cycle late has neither X nor __getattr__ yet: ImportError.
from modgetattr.late import X

COPY = X
