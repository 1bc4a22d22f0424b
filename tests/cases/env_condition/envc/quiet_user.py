from envc.quiet import VALUE  # noqa: F401

USER = 2
