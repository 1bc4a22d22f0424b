from .registry_late import REG
