import lz_output
print('main')
