class Tensor:
    pass
