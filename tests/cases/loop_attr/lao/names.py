ALL = ("a", "b")
