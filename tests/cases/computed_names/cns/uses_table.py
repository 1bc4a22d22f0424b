from .table import green
