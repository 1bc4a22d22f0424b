from . import config

PATCHED = config.patch(debug=True)
