from . import p105
