from .base import BASE
