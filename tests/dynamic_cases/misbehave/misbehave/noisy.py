"""Prints to stdout and stderr at import time, then imports fine."""
import sys

print("NOISY-STDOUT-MARKER")
print("NOISY-STDERR-MARKER", file=sys.stderr)
