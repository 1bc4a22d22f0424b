# py2/py3 compat idioms, run-time module registration, wildcard imports, file vs namespace dir
