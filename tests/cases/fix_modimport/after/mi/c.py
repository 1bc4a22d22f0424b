"""Reads mi.a as an attribute: works only because b's import loaded it."""
import mi


def z():
    return mi.a.Y
