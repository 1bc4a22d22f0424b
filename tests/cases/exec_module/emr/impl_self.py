from emr.impl_self import LATER  # in sys.modules, not initialising: no "partially initialized"

LATER = 1
