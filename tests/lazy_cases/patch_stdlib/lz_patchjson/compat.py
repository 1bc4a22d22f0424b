import json

_dumps = json.dumps

def sorted_dumps(obj, **kwargs):
    kwargs.setdefault('sort_keys', True)
    return _dumps(obj, **kwargs)

json.dumps = sorted_dumps
