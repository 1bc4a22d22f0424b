from .cyc import MODE
slow = 1
