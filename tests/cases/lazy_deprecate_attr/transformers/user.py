import transformers.kw  # noqa: F401  (first: the order that works)
from transformers.proc import Gone, Renamed  # noqa: F401,E402
