from .layered import LAYERED
