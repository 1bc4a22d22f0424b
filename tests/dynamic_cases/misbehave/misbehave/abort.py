"""Aborts the interpreter (SIGABRT) at import time."""
import os

os.abort()
