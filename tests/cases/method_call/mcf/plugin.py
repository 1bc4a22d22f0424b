from mcf import VALUE
