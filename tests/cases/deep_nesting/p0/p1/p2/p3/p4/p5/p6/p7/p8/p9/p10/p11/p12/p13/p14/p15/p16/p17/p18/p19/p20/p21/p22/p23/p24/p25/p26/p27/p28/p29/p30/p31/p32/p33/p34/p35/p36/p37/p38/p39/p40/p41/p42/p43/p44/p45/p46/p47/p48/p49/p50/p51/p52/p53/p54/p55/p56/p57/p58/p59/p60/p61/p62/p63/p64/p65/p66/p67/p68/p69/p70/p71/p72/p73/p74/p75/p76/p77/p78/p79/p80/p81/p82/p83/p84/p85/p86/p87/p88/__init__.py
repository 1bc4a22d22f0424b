from . import p89
