import lz_tupaug
print(lz_tupaug.run(), lz_tupaug.DEFAULTS)
