from .kinds import Kind

CLASSES = sorted(name for name, value in globals().items() if isinstance(value, type))
