from rt.a import A
B = 1
