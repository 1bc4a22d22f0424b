from envc.given import H  # noqa: F401

G = 1
