import functools


def plain(f):
    f.seen = True
    return f


def wrapping(f):
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        from . import wrapped_reader
        return f(*args, **kwargs)
    return wrapper


def counting(f):
    def wrapper(*args, **kwargs):
        return f(*args, **kwargs)
    return wrapper
