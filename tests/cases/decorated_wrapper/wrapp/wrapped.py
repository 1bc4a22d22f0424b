from .deco import wrapping


@wrapping
def run():
    pass


run()
WRAPPED = 1
