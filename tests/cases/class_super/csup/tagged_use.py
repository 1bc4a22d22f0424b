from .hooks_ok import Tagged


class A(Tagged):
    pass
