import sys

if len(sys.argv) > 99:  # not decided statically: either branch may run
    import guardmemo.optional

VALUE = 1
