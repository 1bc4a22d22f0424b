from .caught import CAUGHT
