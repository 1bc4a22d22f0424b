# R12: every construct below touches a name of one u_* module while core is being defined.
# Entered from u_X, only u_X is partial (the others already finished), so exactly the construct
# reading u_X fails; entered first itself, every u_* module completes first and core is fine.
from deftime import (u_base, u_call, u_classbody, u_comprehension, u_decorator, u_default,
                     u_fstring, u_metaclass)


@u_decorator.register  # decorator: evaluated when the def runs
def decorated():
    return "decorated"


def with_default(value=u_default.DEFAULT):  # default value: evaluated when the def runs
    return value


class Derived(u_base.Base):  # base class: evaluated when the class statement runs
    """A subclass."""


class WithMeta(metaclass=u_metaclass.Meta):  # metaclass= keyword: evaluated with the class
    """A class built by a custom metaclass."""


class Settings:
    """Class-body statements run at class creation."""

    LIMIT = u_classbody.LIMIT


SQUARES = [n * u_comprehension.FACTOR for n in range(3)]  # module-level comprehension body runs now

LABEL = f"label-{u_fstring.SUFFIX}"  # f-string: formatted now


def read_flag():
    return u_call.FLAG


FLAG_COPY = read_flag()  # a top-level call runs the body now


def deferred():
    # function bodies, lambda bodies and generator elements are not evaluated at import time
    getter = lambda: u_call.FLAG  # noqa: E731
    return getter(), (x for x in (u_base.Base,))
