from pe import Late  # pe.late reads VALUE from this module, bound after this line
VALUE = 1
