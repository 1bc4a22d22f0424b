"""Examples found by glob (torch's idiom), sorted, filtered in a comprehension, each
imported by a relative __import__ (level 1)."""
import glob
from os.path import basename, dirname, isfile, join


def _collect_examples():
    case_names = sorted(glob.glob(join(dirname(__file__), "*.py")))
    case_names = [
        basename(f)[:-3] for f in case_names if isfile(f) and not f.endswith("__init__.py")
    ]
    for case_name in case_names:
        __import__(case_name, globals(), locals(), [], 1)


_collect_examples()
