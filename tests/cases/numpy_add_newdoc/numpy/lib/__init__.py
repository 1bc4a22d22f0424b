# a stand-in for numpy's add_newdoc (numpy/_core/function_base.py), its first statement
def add_newdoc(place, obj, doc, warn_on_python=False):
    new = getattr(__import__(place, globals(), {}, [obj]), obj)
    return new
