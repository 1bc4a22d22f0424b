from pathlib import Path

from .loader import run_again

again = run_again(Path(__file__).parent)
