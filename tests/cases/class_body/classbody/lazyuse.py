# R12: an import inside a class body runs at class creation (fine mid-cycle: module object via
# the fallback); registry.KINDS is read only in a method.
class Plugin:
    """Reads the registry lazily."""

    from classbody import registry

    def kinds(self):
        return self.registry.KINDS
