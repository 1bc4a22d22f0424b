from .base import Exporter, exporters
from .pdf import PdfExporter
