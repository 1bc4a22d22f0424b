from . import p181
