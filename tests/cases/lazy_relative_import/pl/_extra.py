class Extra:
    pass
