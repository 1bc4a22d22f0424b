"""Fixes: plan.py chooses verified edits, edits.py computes them with libcst."""
