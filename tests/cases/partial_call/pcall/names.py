SEP = ":"
