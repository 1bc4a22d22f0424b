from .viahelper import Y
X = 1
