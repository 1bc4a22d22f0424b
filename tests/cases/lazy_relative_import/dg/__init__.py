# a hand-written __getattr__ saved under another name, and a new one handing it every other
# name: what the saved one answers or raises is the answer
def __getattr__(name):
    if name == "sub_value":
        from .sub import VALUE

        return VALUE
    raise AttributeError(name)


_first = __getattr__


def __getattr__(name):
    if name == "extra":
        return 1
    return _first(name)
