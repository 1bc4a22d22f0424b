from pval.lin.fast import FAST

SLOW = FAST
