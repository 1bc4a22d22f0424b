"""Starts a non-daemon thread that outlives the import: no zygote may fork from here, and a
fresh interpreter must not hang at exit waiting for it."""
import threading

_stop = threading.Event()
threading.Thread(target=_stop.wait, name="threadpkg-idle").start()
VALUE = 1
