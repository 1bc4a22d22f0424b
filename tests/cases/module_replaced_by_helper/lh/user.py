from lh import thing
