# A class body's own namespace: its defs and bindings are visible to the rest of that body
# only (not to a nested class, not to another class); importsafe drops the ones the body never
# reads (static/prune.py), which must change no outcome.
