from . import p97
