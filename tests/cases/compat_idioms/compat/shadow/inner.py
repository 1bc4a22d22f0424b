# never importable: compat.shadow is the module file above, not a package
X = 1
