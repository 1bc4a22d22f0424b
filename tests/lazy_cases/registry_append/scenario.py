import lz_regapp
print(lz_regapp.run_hooks('start'))
