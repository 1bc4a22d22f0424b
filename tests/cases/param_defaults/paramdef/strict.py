# a literal default that leads into the failing branch: NameError as in CPython
def needs_and(strict=True):
    if strict and not False:
        return and_(1)
    return None


needs_and()


def and_(v):
    return v
