# R28: a key not known statically over a table holding both strings and dicts: whether it
# imports is not known.
import sys

from cncompat import registry

PLAIN = registry.get_mixed(sys.modules["cncompat"].__name__, sys.argv[0][:0] + "plain")
