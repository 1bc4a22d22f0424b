# external absolute imports of stdlib modules are fine.
import json
import os.path
from collections import OrderedDict

DATA = json.dumps(OrderedDict(a=os.path.sep))
