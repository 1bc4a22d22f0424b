from .again import reload_package

reload_package()  # runs emc/__init__ again, whose `from .part import VALUE` meets this module
VALUE = 1
