from guardmemo.cyc_b import B

A = 1
