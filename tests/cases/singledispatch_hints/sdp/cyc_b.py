from . import cyc_a


class Thing:
    pass
