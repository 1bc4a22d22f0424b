"""A package that never imports its submodules itself."""
