class Plugin:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        from . import registry
        registry.PLUGINS.append(cls.__name__)
