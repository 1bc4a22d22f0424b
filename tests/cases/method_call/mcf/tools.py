class Tools:
    @staticmethod
    def load():
        from . import plugin
        return plugin


Tools.load()
