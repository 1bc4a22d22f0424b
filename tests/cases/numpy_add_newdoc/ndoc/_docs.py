# scipy.odr._add_newdocs' shape: documents a name of the package, which its __init__ binds
# (bare mode never runs it: AttributeError)
from numpy.lib import add_newdoc

add_newdoc("ndoc", "thing", """
    thing()
""")
