from .version import VERSION  # noqa: F401
