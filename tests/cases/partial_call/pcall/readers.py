from .registry import register_reader

CSV = register_reader("csv")
