class Expr:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.is_atom = cls.__name__ in ('Symbol', 'Number')
