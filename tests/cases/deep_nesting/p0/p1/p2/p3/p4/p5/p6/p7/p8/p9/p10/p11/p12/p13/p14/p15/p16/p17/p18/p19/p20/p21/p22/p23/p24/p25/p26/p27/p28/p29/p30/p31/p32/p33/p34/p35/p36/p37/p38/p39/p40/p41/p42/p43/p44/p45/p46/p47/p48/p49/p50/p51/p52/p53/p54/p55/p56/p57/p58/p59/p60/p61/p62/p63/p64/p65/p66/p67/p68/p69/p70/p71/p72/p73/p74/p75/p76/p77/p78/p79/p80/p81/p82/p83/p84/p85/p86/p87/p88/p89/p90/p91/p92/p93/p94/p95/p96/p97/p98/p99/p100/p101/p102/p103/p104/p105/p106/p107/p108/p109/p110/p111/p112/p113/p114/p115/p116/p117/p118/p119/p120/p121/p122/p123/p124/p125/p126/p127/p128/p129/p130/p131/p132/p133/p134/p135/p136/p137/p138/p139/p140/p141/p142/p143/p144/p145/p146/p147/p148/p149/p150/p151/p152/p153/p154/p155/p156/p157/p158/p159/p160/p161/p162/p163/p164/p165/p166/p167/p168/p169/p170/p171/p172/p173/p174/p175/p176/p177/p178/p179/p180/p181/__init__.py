from . import p182
