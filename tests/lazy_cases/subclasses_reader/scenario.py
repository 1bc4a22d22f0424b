import lz_subcls
print(lz_subcls.exporters())
