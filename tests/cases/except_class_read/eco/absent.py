import eco

try:
    eco.not_there()
except (eco.ToolMissing, OSError):  # neither catches AttributeError
    pass
