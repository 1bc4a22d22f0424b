from . import p180
