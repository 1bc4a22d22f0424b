# R8: `from ...util import fmt` climbs two levels; fmt_name is called at import time.
from ...util import fmt

n = fmt.fmt_name("m")
