from . import p96
