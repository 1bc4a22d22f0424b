from .kept import KEPT
