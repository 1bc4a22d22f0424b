from cco import VALUE
