import importlib.util
import os


def run_again(path):
    spec = importlib.util.spec_from_file_location("eml", os.path.join(path, "__init__.py"),
                                                  submodule_search_locations=[path])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
