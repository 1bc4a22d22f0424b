from . import rot
