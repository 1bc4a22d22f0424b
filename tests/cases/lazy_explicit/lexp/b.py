from lexp.a import A


class B:
    origin = A
