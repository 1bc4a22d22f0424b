import logging
from logging import Filter


class Handler(logging.Handler):  # a library base: a call runs this __init__ all the same
    def __init__(self):
        super().__init__()
        from . import users_handler


class Quiet(Filter):
    def __init__(self):
        super().__init__("quiet")
