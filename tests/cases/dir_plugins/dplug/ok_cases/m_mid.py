# a_first was imported before it, in sorted order
from dplug import ok_cases
Y = ok_cases.a_first.X
