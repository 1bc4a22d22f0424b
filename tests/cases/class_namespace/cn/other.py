# A method of one class is no name in another class's body: NameError at import.
class First:
    def shared(self):
        return 1

    PLAIN = 2


class Second:
    copy = shared  # noqa: F821
