from ldef.x import X2


class Y:
    def value(self):
        return X2
