# imported first, it fails by the cycle: cyc asks dg for sub_value before VALUE is bound
from dg.cyc import X  # noqa: F401

VALUE = 1
