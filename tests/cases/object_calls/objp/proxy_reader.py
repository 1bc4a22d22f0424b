from .proxy import PROXY
