# R27: the name passed on through a second function (pandas.util._test_decorators).
from cnoptional._optional import import_optional


def skip_if_no(package, min_version=None):
    message = f"Could not import {package!r}"
    if min_version:
        message += f" at {min_version}"
    return not import_optional(package, errors="ignore")
