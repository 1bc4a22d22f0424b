def import_module(name, import_kwargs={}):
    """An optional dependency, or None (sympy's sympy.external.import_module)."""
    try:
        mod = __import__(name, **import_kwargs)
    except ImportError:
        return None
    return mod
