# os.environ[...] of a variable that is set reads its value
import os

if os.environ["IMPORTSAFE_CASE_PLUGINS"] == "1":
    from envc.given_user import G  # noqa: F401
H = 1
