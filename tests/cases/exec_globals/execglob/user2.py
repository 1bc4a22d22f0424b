# mid-cycle Z is not bound yet (the exec has not run) -> ImportError; entered first, dyn2
# completes and its exec binds Z: dyn2 has finished, so Z is taken as bound (assumed).
from execglob.dyn2 import Z

COPY = Z
