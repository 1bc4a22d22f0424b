import codecs
import lz_codec
try:
    print(codecs.encode('abc', 'lz_rot13'))
except LookupError as exc:
    print('LookupError')
