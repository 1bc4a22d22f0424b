"""Writes a file through a relative path at import time: it must land in the job's cwd."""
import os

with open("written.txt", "w") as f:
    f.write("written")
print("CWD=" + os.getcwd())
