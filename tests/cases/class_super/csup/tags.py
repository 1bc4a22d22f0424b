DEFAULT = "t"
