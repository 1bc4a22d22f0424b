"""Run first imports for real, in isolated interpreters (probe.py runs inside the target)."""
