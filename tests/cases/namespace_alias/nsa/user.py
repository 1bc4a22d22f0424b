from nsa.old import *
X = (Edit, File)
