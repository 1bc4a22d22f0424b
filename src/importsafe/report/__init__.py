"""One renderer per output format; each takes a Report and returns text."""
