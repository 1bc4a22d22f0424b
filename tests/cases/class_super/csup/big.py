from .loading import Loader

VALUE = 1
Loader().import_now()  # a method of the object the call made
