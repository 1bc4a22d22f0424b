# R10b: hasattr(mgs, "listed") imports it through __getattr__; "unlisted" is imported by the
# fromlist handling after __getattr__ raised AttributeError. Both ok.
from mgs import listed, unlisted

TOTAL = listed.VALUE + unlisted.VALUE
