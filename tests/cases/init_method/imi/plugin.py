from . import helpers

helpers.check()
