# imports the distribution it asks the version of: assumed installed, as external modules are
from importlib import metadata

import importsafe_absent_distribution  # noqa: F401

if metadata.version("importsafe-absent-distribution") >= "1":
    NEW = True
