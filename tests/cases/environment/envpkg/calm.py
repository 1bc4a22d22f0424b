# the import under `if level is not None` would fail by the cycle; with the variable unset
# it never runs
import os


def _setup():
    level = os.environ.get("IMPORTSAFE_FIXTURE_LEVEL", None)
    if level is not None:
        from envpkg.calm_cycle import x  # noqa: F401


_setup()
VALUE = 1
