from .sub import DOUBLE  # noqa: F401
