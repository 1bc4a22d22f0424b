# os.name is decided statically; the assert fails on Linux
import os

assert os.name == "nt", "windows"
