from . import p44
