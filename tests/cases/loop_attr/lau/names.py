from json import loads

ALL = loads('["b"]')
