# Every later read of a class-level name finds it: a property's setter, an alias, a call of a
# helper defined in the body, a deleted temporary.
class Config:
    def helper():
        return 3

    SIZE = helper()
    del helper

    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, new):
        self._value = new

    def unused(self):
        return missing_everywhere  # noqa: F821 - a method body runs later, never here

    alias = unused
    LIMIT = 10
