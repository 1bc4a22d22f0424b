# R12: a decorator whose body only reads builtins and its argument: calling it at import time
# runs nothing that could fail.


def mark(func):
    setattr(func, "marked", True)
    return func
