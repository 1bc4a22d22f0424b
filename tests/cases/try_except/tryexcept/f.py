# R3: fails when e is still before READY; as entry, e's final `from tryexcept.f import F` finds f partial.
from tryexcept.e import READY

F = READY
