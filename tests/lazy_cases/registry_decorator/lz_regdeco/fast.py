from .registry import register

@register
class FastBackend:
    name = 'fast'
