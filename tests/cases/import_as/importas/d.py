# R7: plain `import p.c` then top-level `p.c.X`: fails when c is running (c not bound on importas yet).
import importas.c

Z = importas.c.X
