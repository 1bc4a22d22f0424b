from . import _c  # the package's own import loads _c: bare mode does not
