# R5: `from fromsub import d` imports the submodule fromsub.d because it is not an attribute yet.
from fromsub import d

VALUE = d.VALUE
