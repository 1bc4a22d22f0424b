# reexport: defines the re-exported class; imports nothing from the package.
class Thing:
    """A thing."""
