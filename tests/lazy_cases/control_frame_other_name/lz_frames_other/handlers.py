class Dispatcher:
    def __init__(self, name):
        self.name, self.funcs = name, []

    def add(self, func):
        self.funcs.append(func)
        return self


union = Dispatcher("union")
