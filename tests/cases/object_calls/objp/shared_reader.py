from .uses_shared import USED
