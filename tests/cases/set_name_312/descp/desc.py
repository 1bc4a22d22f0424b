from .fields import Field


class Model:
    f = Field()


DESC = 1
