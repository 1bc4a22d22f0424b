from .deco import counting


@counting
def run():
    from . import counted_reader


run()
COUNTED = 1
