NAME = "cudf"
