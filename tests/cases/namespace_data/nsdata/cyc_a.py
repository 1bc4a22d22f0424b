import nsdata.data
from nsdata.cyc_b import B

A = 1
