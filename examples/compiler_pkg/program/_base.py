"""The minimal interface shared by real and fake programs."""


class ProgramBase:
    """Something a backend can compile: a name and a list of opcodes."""

    def __init__(self, name, opcodes=()):
        self.name = name
        self.opcodes = list(opcodes)

    def __len__(self):
        return len(self.opcodes)
