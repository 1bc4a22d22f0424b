import importlib.util
import os
import sys


def run_again(path, file="__init__.py"):
    # transformers' direct_transformers_import: the package's __init__ runs again, in a fresh
    # module object that is in no sys.modules
    name = "em"
    location = os.path.join(path, file)
    spec = importlib.util.spec_from_file_location(name, location,
                                                  submodule_search_locations=[str(path)])
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module = sys.modules[name]
        return module
    raise ImportError(f"Could not load module {name} from {location}")
