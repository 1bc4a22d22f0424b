from .readers import CSV

TABLES = {}
