from . import p162
