from .registry import get, register
from .fast import FastBackend
