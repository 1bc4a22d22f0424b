import lz_cache
print(lz_cache.lookup(7))
