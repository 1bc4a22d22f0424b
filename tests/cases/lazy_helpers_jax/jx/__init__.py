# the package named may be any package: here one outside the analysed code
from jax._src.lazy_loader import attach

__getattr__, __dir__, __all__ = attach("json", ["decoder"])
