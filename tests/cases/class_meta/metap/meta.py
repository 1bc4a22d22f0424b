REGISTRY = {}


class Meta(type):
    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        REGISTRY[name] = cls
        if name.startswith("Loading"):
            from . import users_init


class NewMeta(type):
    def __new__(mcs, name, bases, ns):
        from . import users_new
        return super().__new__(mcs, name, bases, ns)


class CallMeta(type):
    def __call__(cls, *args, **kwargs):
        from . import users_call
        return super().__call__(*args, **kwargs)
