from envpkg.flags import LEVEL  # noqa: F401

speed = 2
