import lz_syspath
try:
    import lz_vendored_thing
    print(lz_vendored_thing.VALUE)
except ImportError as exc:
    print('ImportError', exc.name)
