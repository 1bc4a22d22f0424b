from dask import config  # noqa: F401
