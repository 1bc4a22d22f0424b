import functools


def label(text, prefix):
    from . import names
    return prefix + names.SEP + text


star = functools.partial(label, prefix="*")
STARRED = star("x")
