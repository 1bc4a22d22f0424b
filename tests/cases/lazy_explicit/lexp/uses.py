from lexp.eager import E

lazy from lexp.a import make
U = E
