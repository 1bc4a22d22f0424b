import os

from .loader import run_again

run_again(os.path.dirname(__file__))  # in bare mode too, sys.modules["eml"] is now the lazy one
from eml import thing  # noqa: E402
