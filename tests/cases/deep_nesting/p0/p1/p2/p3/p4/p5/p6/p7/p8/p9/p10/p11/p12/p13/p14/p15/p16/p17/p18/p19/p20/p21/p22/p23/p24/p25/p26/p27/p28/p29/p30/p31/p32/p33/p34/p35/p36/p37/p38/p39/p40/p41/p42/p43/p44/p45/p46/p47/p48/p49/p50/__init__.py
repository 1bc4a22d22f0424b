from . import p51
