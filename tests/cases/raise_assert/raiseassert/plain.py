# binds nothing itself
