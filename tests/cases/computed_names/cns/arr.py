from . import ufuncs as u


class A:
    c = u.alpha
