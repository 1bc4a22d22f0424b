import lz_regdeco
print(lz_regdeco.get('fast').__name__)
