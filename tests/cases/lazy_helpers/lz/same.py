def same():
    pass
