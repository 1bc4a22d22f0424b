def thing():
    pass
