from .work import run
