import lz_atonce
print(lz_atonce.DEFAULT, lz_atonce.get('fast').__name__)
