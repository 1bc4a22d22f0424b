from .attrs import get_two
