class Field:
    def __set_name__(self, owner, name):
        from . import desc_reader


class Quiet:
    def __set_name__(self, owner, name):
        self.label = name


class Late:
    def __set_name__(self, owner, name):
        from . import late_reader


class Caught:
    def __set_name__(self, owner, name):
        from . import caught_reader


class Kept:
    def __set_name__(self, owner, name):
        from . import kept_reader


SHARED = Kept()
