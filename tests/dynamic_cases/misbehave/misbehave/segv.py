"""Segfaults the interpreter at import time."""
import ctypes

ctypes.string_at(0)
