# SystemExit is not an Exception: `except Exception` does not catch it
try:
    raise SystemExit(2)
except Exception:
    pass
