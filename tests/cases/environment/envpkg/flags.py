# environment variables are unset in the ordinary environment: DEBUG is None, the mode "fast"
import os

DEBUG = os.environ.get("IMPORTSAFE_FIXTURE_DEBUG")
if DEBUG:
    from envpkg import never  # noqa: F401  (would be a missing module)
if "IMPORTSAFE_FIXTURE_TRACE" in os.environ:
    import envpkg.never  # noqa: F401
if os.getenv("IMPORTSAFE_FIXTURE_MODE", "fast") == "fast":
    from envpkg.fast import speed  # noqa: F401  (fast reads LEVEL, not bound yet)
LEVEL = 1
