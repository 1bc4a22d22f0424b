from .registry import register

@register
class Fast:
    name = 'fast'
