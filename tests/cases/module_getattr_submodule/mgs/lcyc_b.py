# R10b: first, lcyc_a's `from mgs import lcyc_b` gets this running module from __getattr__'s
# import_module (it is in sys.modules): ok.
from mgs.lcyc_a import Y

COPY = Y
