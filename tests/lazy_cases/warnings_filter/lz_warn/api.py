import warnings

def old_function():
    warnings.warn('old_function is deprecated', DeprecationWarning, stacklevel=1)
    return 'result'
