# a decided-true assert passes
import sys

assert sys.version_info >= (3, 0), "python 3 only"
