class Tagged:
    def __init_subclass__(cls, **kwargs):
        from . import tags
        cls.tag = tags.DEFAULT
