import ifmerge.uses_same

VALUE = 1
