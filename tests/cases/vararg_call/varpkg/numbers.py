from varpkg.util import dimension

SHAPE = dimension("*", 2)
