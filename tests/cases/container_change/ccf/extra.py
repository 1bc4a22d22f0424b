from ccf import VALUE
