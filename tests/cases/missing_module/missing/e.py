# R5: a submodule of a plain module: ModuleNotFoundError ("'missing.c' is not a package").
import missing.c.sub
