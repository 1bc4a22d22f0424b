import importlib

from dask import config


def _backend():
    return config.get("array.backend")


def _planning():
    return config.get("dataframe.query_planning", True)  # null, through its `-` spelling


def _chunks():
    return config.get("array.chunk-size", "128MiB")  # not in dask.yaml: the default


BACKEND = importlib.import_module(f"dask.array.{_backend()}_backend")
if _planning() is not None:
    import dask.array.missing_planning  # noqa: F401 - not reached
if _chunks() != "128MiB":
    import dask.array.missing_chunks  # noqa: F401 - not reached
