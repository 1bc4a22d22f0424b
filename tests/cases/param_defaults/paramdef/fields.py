# field() called with its defaults never takes the `if validator:` branch, which would read a
# name bound only later in this module
def field(default=None, validator=None):
    if validator:
        return and_(validator)
    return default


X = field()
Y = field(3)


def and_(v):
    return v
