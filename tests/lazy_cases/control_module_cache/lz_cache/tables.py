_SQUARES = {}
for _i in range(10):
    _SQUARES[_i] = _i * _i

def lookup(n):
    return _SQUARES[n]
