def load():
    from lel.back_func import F  # in a function: never lazy
    return F


G = load()
H = 1
