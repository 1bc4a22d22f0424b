# R4: the module object of a partial module is returned; reading a not-yet-bound name fails.
from attrpartial import a

Y = a.X  # AttributeError when a is the entry; fine when b is (a then runs to completion)
