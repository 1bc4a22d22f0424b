from dask.dataframe._util import BACKEND  # noqa: F401 - _util is still running: a cycle
