_KINDS = {}

def register(cls):
    _KINDS[cls.name] = cls
    return cls

def get(name):
    return _KINDS[name]
