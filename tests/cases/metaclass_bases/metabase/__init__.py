# a metaclass that returns early for the class it makes directly (`cls.__bases__[0] is
# object`) and reads a later name for the others (astropy's _ConfigNamespaceMeta)
