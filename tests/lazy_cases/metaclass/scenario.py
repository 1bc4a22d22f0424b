import lz_meta
print(lz_meta.by_name('Zipper'))
