try:
    import json
    HAS_JSON = True
except ImportError:
    HAS_JSON = False
if not HAS_JSON:
    from .present_back import never
READY = True
