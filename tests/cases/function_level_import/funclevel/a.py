# R12: a top-level import of b; b imports a back only inside a function body.
from funclevel.b import B

A = "a"
