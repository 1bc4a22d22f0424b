class Config:
    def __init__(self):
        self.value = DEFAULT  # read when `config = Config()` runs: before the binding


config = Config()
DEFAULT = 1
