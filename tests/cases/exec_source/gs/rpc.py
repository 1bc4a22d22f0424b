class RRef:
    def __class_getitem__(cls, item):
        return cls


from gs import remote  # noqa: E402  after RRef: the generated module finds it
