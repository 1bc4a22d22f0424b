# R28: the same, then a cycle: cycle_partner reads DONE before it is bound.
import sys

from cncompat import registry

MODULES = registry.build(sys.modules["cncompat"])

from cncompat import cycle_partner  # noqa: E402,F401

DONE = True
