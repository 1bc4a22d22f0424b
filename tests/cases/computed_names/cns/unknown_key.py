# R23: a key from the environment: which name is bound is not known
import os

globals()[os.environ.get("CNS_NAME", "dflt")] = 1
from .unknown_user import z  # noqa: E402,F401
