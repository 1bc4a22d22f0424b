# R27: a literal passed two calls down is the name imported: an outside module, ok.
from cnoptional import decorators

SKIP_JSON = decorators.skip_if_no("json")
