# R28: which entries `build` reads is not known statically (the package object's name), but
# every entry at that level of COMPAT is a dict, so the import is never reached: ok.
import sys

from cncompat import registry

MODULES = registry.build(sys.modules["cncompat"])
