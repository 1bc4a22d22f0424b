# R10b: first, cyc_a's `from mgs import cyc_b` finds this running module in sys.modules
# (IMPORT_FROM falls back to it after __getattr__ raised AttributeError): ok.
from mgs.cyc_a import X

COPY = X
