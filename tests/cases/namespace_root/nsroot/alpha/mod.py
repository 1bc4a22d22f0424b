# namespace: needs beta's B at import time before binding A.
from nsroot.beta.mod import B

A = "alpha:" + B
