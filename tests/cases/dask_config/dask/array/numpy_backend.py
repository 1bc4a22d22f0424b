NAME = "numpy"
