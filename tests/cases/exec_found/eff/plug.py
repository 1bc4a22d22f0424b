from eff.ext import READY  # ext is still running when its try_import runs this
