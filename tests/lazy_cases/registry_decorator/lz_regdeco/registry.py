_BACKENDS = {}

def register(cls):
    _BACKENDS[cls.name] = cls
    return cls

def get(name):
    return _BACKENDS[name]
