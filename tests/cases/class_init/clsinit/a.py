class Logger:
    def __init__(self, observer=None):
        if observer is None:
            from .b import publisher  # runs when `log = Logger()` below runs
            observer = publisher
        self.observer = observer


log = Logger()
