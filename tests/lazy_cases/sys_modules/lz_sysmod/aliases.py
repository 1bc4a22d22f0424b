import sys
from . import real

sys.modules['lz_sysmod_legacy'] = real
