# R21: a plugin that reads nothing of data.
B = 1
