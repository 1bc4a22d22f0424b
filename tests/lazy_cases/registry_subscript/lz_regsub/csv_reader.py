from .readers import READERS

class CsvReader:
    pass

READERS['csv'] = CsvReader
