from .tables import lookup
