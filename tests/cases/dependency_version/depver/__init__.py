# a plain package
