import lz_builtins
try:
    print(_('hello'))
except NameError as exc:
    print('NameError')
