import lz_regsub
print(sorted(lz_regsub.READERS))
