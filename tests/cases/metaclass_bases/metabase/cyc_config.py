class _Meta(type):
    def __init__(cls, name, bases, dict):
        if cls.__bases__[0] is object:
            return
        for key, val in dict.items():
            if isinstance(val, Item):
                val.name = key


class Namespace(metaclass=_Meta):
    pass


from metabase import cyc_user  # noqa: E402 - its subclass is made before Item exists


class Item:
    pass
