import lz_patchjson
print(lz_patchjson.dump({'b': 1, 'a': 2}))
