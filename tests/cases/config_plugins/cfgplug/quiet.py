from .manage import load, plugin_meta

# beta's file has no `provides` option, so it is skipped; gamma only writes
if plugin_meta["gamma"].get("kind") == "writer":
    load("gamma")

VALUE = 1
