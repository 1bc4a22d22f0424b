class Plain:
    pass
