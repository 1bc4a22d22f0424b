import importlib.util
import os

# the file it runs is not spelled statically
location = os.path.join(os.path.dirname(__file__), "ba" + "se.py".lower())
spec = importlib.util.spec_from_file_location("em.base", location)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
