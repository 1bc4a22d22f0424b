X = "b"
