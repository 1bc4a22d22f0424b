VERSION = '1.0'
print('lz_output', VERSION, 'loaded')
