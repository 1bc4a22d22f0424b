from . import p131
