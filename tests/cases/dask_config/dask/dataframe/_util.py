import importlib

from dask import config


def _backend_name():
    return config.get("dataframe.backend", "cudf")


BACKEND = importlib.import_module("dask.dataframe." + _backend_name() + "_backend")
