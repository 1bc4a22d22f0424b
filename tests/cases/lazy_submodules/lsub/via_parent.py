import lsub.pk
from lsub.pk import c  # names lsub.pk, not lsub.pk.b

FIRST = c.Y
SECOND = lsub.pk.b.X  # nobody imported lsub.pk.b: fails eagerly and lazily
