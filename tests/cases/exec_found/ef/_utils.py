import importlib.util
import sys


def try_import(module_name):
    # the importlib recipe "Checking if a module can be imported"
    if (module := sys.modules.get(module_name, None)) is not None:
        return module
    if (spec := importlib.util.find_spec(module_name)) is not None:
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        if spec.loader is None:
            raise AssertionError("no loader")
        spec.loader.exec_module(module)
        return module
    return None
