# R1/R2: runs last; both ancestors finished and orderabc.b is bound on orderabc, so these reads work.
import orderabc.b

PARENTS = (orderabc.ROOT, orderabc.b.LEVEL)
