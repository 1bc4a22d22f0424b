# a local that an undecided `if` may rebind holds no known value after it: the test on it is
# not decided, and the failure the import would meet is unknown, not a guess
import os


def _maybe():
    level = os.environ.get("IMPORTSAFE_FIXTURE_LEVEL")
    if len(os.sep) > 5:  # not decided statically (false when it runs)
        level = os.environ.get("IMPORTSAFE_FIXTURE_OTHER", "set")
    if level is not None:
        from envpkg.maybe_cycle import y  # noqa: F401


_maybe()
