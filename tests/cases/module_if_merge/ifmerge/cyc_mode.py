import ifmerge.uses_mode

VALUE = 1
