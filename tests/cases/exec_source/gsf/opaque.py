import json

from gsf.instantiator import run_source

# a source the checker cannot evaluate: json is not analysed code
_M = run_source("_opaque_gsf", "VALUE = " + json.dumps(1))
