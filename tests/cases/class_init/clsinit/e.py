class Plugin:
    def __init__(self, name, registry=None):
        self.name = name
        if registry is not None:
            registry.append(self)


REGISTRY = []
first = Plugin("first", REGISTRY)
second = Plugin("second")
