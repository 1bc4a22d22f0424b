ORDER = []
