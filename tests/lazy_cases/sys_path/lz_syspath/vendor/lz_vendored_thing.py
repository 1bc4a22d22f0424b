VALUE = 'vendored'
