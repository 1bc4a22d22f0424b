from .loader import Builder

b = Builder()
b.build()
BUILT = 1
