# bare: the package __init__ enters the a <-> b cycle through a, the order in which it fails.
from .a import A
