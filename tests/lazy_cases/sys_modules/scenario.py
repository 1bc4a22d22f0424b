import lz_sysmod
try:
    import lz_sysmod_legacy
    print(lz_sysmod_legacy.NAME)
except ImportError as exc:
    print('ImportError', exc.name)
