from .unknown_key import dflt as z
