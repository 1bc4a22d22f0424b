# the same read where a KeyError is handled, or where it may not be evaluated
import os

try:
    TOKEN = os.environ["IMPORTSAFE_CASE_TOKEN"]
except KeyError:
    TOKEN = None
FALLBACK = os.environ.get("IMPORTSAFE_CASE_OTHER") or os.environ["IMPORTSAFE_CASE_PLUGINS"]
