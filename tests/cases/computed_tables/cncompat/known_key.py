# R28: literal keys pick the entry: a string, so the test holds and str_partner is imported
# now; it reads READY before it is bound.
from cncompat import registry

PARTNER = registry.get_mixed("cncompat", "partner")
READY = True
