"""Imports fine; its submodules misbehave."""
