import envpkg.maybe  # noqa: F401

y = 4
