# R7: plain `import importas.d`; d reads importas.c.X at top level while c is partial.
import importas.d

X = "c"
