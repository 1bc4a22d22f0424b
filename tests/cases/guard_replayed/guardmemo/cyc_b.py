import sys

if len(sys.argv) > 99:
    import guardmemo.optional

from guardmemo.cyc_a import A

B = 2
