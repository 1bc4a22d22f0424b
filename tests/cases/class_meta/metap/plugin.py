class Plugin:
    def __init_subclass__(cls, load=False, **kwargs):
        super().__init_subclass__(**kwargs)
        if load:
            from . import users_plugins


class Loader:
    def __init__(self, where):
        from . import users_loader
        self.where = where
