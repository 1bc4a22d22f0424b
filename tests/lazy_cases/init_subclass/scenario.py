import lz_initsub
print(type(lz_initsub.shape('circle')).__name__)
