import sys

MODE = "plain"
if len(sys.argv) > 99:  # not decided statically
    MODE = "fast"

SAME = "one"
if len(sys.argv) > 99:
    SAME = "one"
