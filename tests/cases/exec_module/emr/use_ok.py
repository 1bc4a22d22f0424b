from emr.load import load

load("impl")
from emr.impl import THING  # noqa: E402 - from sys.modules, where load() put it
