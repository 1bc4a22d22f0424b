"""models imports services first; services needs Model for annotations only."""
from .services import Service


class Model:
    service = Service
