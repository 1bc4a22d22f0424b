# a directory with no Python in it still imports, as a namespace portion (numpy._core.include)
