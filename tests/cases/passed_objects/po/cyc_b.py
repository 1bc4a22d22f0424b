from . import cyc_a  # noqa: F401

VALUE = 1
