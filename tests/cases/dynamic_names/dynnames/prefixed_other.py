from dynnames.prefixed import OTHER  # noqa: F401
