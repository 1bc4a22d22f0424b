# R22: a leaf.
class Helper:
    pass
