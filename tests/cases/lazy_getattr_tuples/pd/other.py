from pd import Missing  # noqa: F401
