from .meta import CallMeta


class Tool(metaclass=CallMeta):
    pass


TOOLS = 1  # the class is made, not called: CallMeta.__call__ has not run yet
TOOL = Tool()
LATE = 1
