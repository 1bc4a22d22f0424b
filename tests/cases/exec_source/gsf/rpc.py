from gsf import remote  # before RRef: the generated module imports it too early


class RRef:
    def __class_getitem__(cls, item):
        return cls
