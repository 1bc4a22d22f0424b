# no cycle: generic code that works in every order
type Name = str


@staticmethod
def ident[T](x: T) -> T:
    return x


VALUE: Name = "c"
