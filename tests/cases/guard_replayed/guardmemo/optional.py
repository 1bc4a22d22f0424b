# an optional part: its `raise` is a guard, the import that reaches it is an environment test
raise ImportError("the optional accelerator is not installed")
