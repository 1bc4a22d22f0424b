from envpkg.calm import VALUE  # noqa: F401

x = 3
