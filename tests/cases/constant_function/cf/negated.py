from cf import config

if not config.is_fbcode() and config.is_release():
    from cf.builder import VALUE  # noqa: F401
else:
    from cf.fb import nothing  # noqa: F401
