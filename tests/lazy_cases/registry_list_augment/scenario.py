import lz_listaug
print(lz_listaug.run(), lz_listaug.DEFAULTS)
