from .desc import DESC
