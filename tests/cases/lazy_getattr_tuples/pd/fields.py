from pd.main import Model  # noqa: F401


class Field:
    pass
