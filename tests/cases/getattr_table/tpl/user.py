from tpl.templates import FILE, MACROS

BOTH = FILE + MACROS
