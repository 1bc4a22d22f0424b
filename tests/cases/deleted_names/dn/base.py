X = 1
TEMP = 2
