# R5: a missing top-level module: ModuleNotFoundError for that name.
import nosuch_toplevel_module_xyz
