# A nested class body cannot see its enclosing class's names: NameError at import.
class Outer:
    def meth(self):
        return 1

    class Inner:
        m = meth  # noqa: F821
