import codecs

def _search(name):
    if name != 'lz_rot13':
        return None
    return codecs.lookup('rot13')

codecs.register(_search)
