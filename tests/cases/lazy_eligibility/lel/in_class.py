class Holder:
    from lel.back_class import C  # in a class body: never lazy


K = 1
