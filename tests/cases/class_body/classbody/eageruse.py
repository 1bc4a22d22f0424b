# R12: a class-body statement reads registry.KINDS at class creation: fails while registry is partial.
from classbody import registry


class EagerPlugin:
    """Copies the registry's kinds when the class is created."""

    KINDS = registry.KINDS

    def kinds(self):
        return self.KINDS
