from .deco import wrapping


@wrapping
def run():
    pass


DEFINED = 1
