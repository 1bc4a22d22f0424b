__version__ = version = "1.4.2"
