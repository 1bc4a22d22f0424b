import importlib.util
import os
import sys

HERE = os.path.dirname(__file__)


def load(name):
    # the importlib recipe "Importing a source file directly"
    spec = importlib.util.spec_from_file_location(f"emr.{name}", os.path.join(HERE, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[f"emr.{name}"] = module
    spec.loader.exec_module(module)
    return module
