class Chat:
    pass
