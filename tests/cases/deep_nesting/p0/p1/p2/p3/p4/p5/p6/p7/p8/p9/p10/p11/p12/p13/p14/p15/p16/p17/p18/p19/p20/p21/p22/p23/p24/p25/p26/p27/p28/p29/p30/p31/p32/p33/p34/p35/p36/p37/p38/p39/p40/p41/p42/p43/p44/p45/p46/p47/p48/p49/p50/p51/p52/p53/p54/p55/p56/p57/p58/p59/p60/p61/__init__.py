from . import p62
