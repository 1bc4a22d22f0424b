from lel.dyn import D

E = D
