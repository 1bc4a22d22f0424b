from .deco import plain


@plain
def run():
    from . import marked_reader


run()
MARKED = 1
