# bindings: `del TEMP` unbinds the name: ImportError whether or not binder is complete.
from bindings.binder import TEMP
