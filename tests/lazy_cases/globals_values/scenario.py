from lz_globals import catalog
print(catalog.CLASSES)
