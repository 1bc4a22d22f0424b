import lz_warn
try:
    print(lz_warn.old_function())
except DeprecationWarning as exc:
    print('DeprecationWarning raised')
