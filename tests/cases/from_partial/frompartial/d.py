# R5: c is partial when c is the entry, but X is already bound there, so this works either way.
from frompartial.c import X

Z = X
