import mco


def kwdoc(cls):
    return "Properties: %s" % mco.X


class Artist:
    def __init__(self):
        self.stale = True

    @classmethod
    def _update_docstring(cls):
        cls.__doc__ = cls._doc()

    @classmethod
    def _doc(cls):
        return kwdoc(cls)

    def sized(n):
        return n * mco.X


# deferred to the end of the module, as matplotlib's artist.py does
Artist._update_docstring()
SIZE = Artist.sized(3)
