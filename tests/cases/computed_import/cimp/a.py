# R20: import_module of an f-string: b runs now, and reads X before a binds it.
import importlib

NAME = "b"
mod = importlib.import_module(f"cimp.{NAME}")
X = 1
