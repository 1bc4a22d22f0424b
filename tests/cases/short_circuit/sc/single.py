class Multiple:
    def __init__(self) -> None:
        # a singleton: the name is read only once it is bound
        assert "MULTIPLE" not in globals() or self is MULTIPLE


MULTIPLE = Multiple()
if "MULTIPLE" in globals() or UNBOUND:
    SEEN = True
