# R21: a data module that discovers its plugins at import time, before it binds Base: every
# plugin reading Base fails by the cycle (a computed __import__ over pkgutil.walk_packages).
import pkgutil

from cli import plugins

for _, name, _ in pkgutil.walk_packages(plugins.__path__, plugins.__name__ + "."):
    __import__(name, fromlist=["register"])

Base = object
