from . import p179
