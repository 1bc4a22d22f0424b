from . import p164
