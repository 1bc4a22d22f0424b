def setup():
    from .cyc_b import VALUE
    return VALUE


class Maker:
    def __init__(self):
        self.value = setup()
