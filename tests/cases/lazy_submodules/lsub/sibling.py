import lsub.pk.b as pkb
from lsub import pk

VALUE = pk.b.X  # pk.b is a submodule proxy until it is read
