from pd import Model, fields  # noqa: F401
