from envc.switch import T  # noqa: F401

S = 1
