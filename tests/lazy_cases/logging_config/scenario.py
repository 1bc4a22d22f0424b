import lz_logcfg
print(lz_logcfg.work())
