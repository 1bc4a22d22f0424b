class Kind:
    pass
