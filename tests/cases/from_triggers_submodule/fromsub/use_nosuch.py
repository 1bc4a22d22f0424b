# R5: neither an attribute nor a submodule: ImportError "cannot import name 'nosuch'".
from fromsub import nosuch
