from pd import Field  # noqa: F401  (fields imports main back: Model is not bound yet)


class Model:
    pass
