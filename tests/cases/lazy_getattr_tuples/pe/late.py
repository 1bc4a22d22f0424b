from pe.cyc import VALUE


class Late:
    pass
