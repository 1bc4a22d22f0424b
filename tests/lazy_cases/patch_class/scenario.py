import lz_patchcls
print(lz_patchcls.Model().describe())
