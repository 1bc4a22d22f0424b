from .tools import TOOLS, LATE
