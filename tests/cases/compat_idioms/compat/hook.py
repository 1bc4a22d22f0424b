# registers a module in sys.modules at run time (like six.moves)
import sys
import types

sys.modules["compat.virtual"] = types.ModuleType("compat.virtual")
