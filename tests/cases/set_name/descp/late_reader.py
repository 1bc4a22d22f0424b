from .late import LATE
