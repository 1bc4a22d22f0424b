# if-tests on parameters of functions called at import time are decided from the call
