# R10b: an attribute read (no import statement) of an unbound submodule: in normal mode
# __getattr__ may import it or raise, which the analysis cannot tell (static unknown); bare,
# mgs has no __getattr__ (its __init__ never ran): AttributeError.
import mgs

V = mgs.listed.VALUE
