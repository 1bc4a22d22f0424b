import sys

del sys.modules["rp.reactor"]  # as twisted's reactor module: the installed object takes its place

from rp import default  # noqa: E402

default.install()
