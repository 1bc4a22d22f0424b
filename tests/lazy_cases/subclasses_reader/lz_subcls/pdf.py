from .base import Exporter

class PdfExporter(Exporter):
    pass
