# A class-level name read before it is bound falls back to the module's global of that name.
size = 5


class Box:
    first = size

    def size(self):
        return 1

    second = size
