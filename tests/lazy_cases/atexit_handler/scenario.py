import lz_atexit
print('main done')
