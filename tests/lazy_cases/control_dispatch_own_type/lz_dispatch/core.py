_RENDERERS = {}

def renders(cls):
    def deco(fn):
        _RENDERERS[cls] = fn
        return fn
    return deco

def render(obj):
    return _RENDERERS[type(obj)](obj)
