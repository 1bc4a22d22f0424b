PLUGINS = {}

class PluginMeta(type):
    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        if bases:
            PLUGINS[name] = cls

class Plugin(metaclass=PluginMeta):
    pass

def by_name(name):
    return PLUGINS.get(name)
