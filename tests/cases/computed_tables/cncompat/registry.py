# R28: celery.local's compat modules: a nested literal dict, looked up with keys the caller
# computes, and an `isinstance(entry, str)` test choosing between an import and a dict.
import importlib

COMPAT = {
    "cncompat": {
        "old_log": {"get_logger": "log.get_logger"},
        "old_tasks": {"tasks": "tasks"},
    },
}

# a table whose entries are strings (module names) or dicts
MIXED = {
    "cncompat": {
        "partner": "cncompat.str_partner",
        "plain": {"x": "y"},
    },
}


def get_compat(package, name):
    attrs = COMPAT[package][name]
    if isinstance(attrs, str):
        return importlib.import_module(attrs)
    return dict(attrs)


def get_mixed(package, name):
    entry = MIXED[package][name]
    if isinstance(entry, (str, bytes)):
        return importlib.import_module(entry)
    return entry


def build(pkg):
    return {mod: get_compat(pkg.__name__, mod) for mod in COMPAT.get(pkg.__name__, ())}
