# a module file beats a same-named directory without __init__.py (a namespace portion)
VALUE = "file"
