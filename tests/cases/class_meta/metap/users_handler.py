from .logs import LOGS
