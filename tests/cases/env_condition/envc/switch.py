# an analysed pure function that reads the environment, called in a condition
import os


def _enabled():
    return os.environ.get("IMPORTSAFE_CASE_PLUGINS", "0") == "1"


if _enabled():
    from envc.switch_user import S  # noqa: F401
T = 1
