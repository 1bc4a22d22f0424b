import lz_regsub.csv_reader  # registers the reader
from .readers import READERS
