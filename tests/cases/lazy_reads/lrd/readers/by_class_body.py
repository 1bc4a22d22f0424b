from lrd.target import VALUE


class C:
    attr = VALUE
