import lz_environ
print(lz_environ.mode())
