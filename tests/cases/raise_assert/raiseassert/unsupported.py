# a module-level raise escapes the import
raise RuntimeError("this module is not supported")
