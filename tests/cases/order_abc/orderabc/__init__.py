# R1: `import orderabc.b.c` runs this package first, to completion, before orderabc.b starts.
ROOT = "orderabc"
