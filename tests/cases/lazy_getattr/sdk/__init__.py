# R22: a generated SDK's PEP 562 loader: a literal {name: ".submodule"} dict and
# import_module(module_name, __package__), errors re-raised with their own messages.
from importlib import import_module

_dynamic_imports = {"Client": ".client", "Model": ".models", "Helper": ".helper"}


def __getattr__(attr_name):
    module_name = _dynamic_imports.get(attr_name)
    if module_name is None:
        raise AttributeError(f"No {attr_name} found in _dynamic_imports for {__name__}")
    try:
        module = import_module(module_name, __package__)
        result = getattr(module, attr_name)
        return result
    except ImportError as e:
        raise ImportError(f"Failed to import {attr_name} from {module_name}: {e}") from e
    except AttributeError as e:
        raise AttributeError(f"Failed to get {attr_name} from {module_name}: {e}") from e
