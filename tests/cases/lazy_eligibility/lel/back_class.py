from lel.in_class import K

C = K
