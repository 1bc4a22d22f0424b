# R5: executing this module fails (it asks for a name nobody defines); it runs only when imported.
from fromsub import never_defined
