# the value an import call returns, read at once
import importlib

CORE = importlib.import_module("ndoc.core").thing
MISSING = getattr(__import__("ndoc.core", globals(), {}, ["nothing"]), "nothing")
