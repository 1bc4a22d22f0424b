from . import p154
