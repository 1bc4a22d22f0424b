"""A stand-in for scientific-python's lazy_loader (not installed for the tests): attach and
attach_stub as that library documents them."""
import ast
import importlib
import os
import sys


def attach(package_name, submodules=None, submod_attrs=None):
    submodules = set(submodules or ())
    owner = {a: m for m, names in (submod_attrs or {}).items() for a in names}

    def __getattr__(name):
        if name in submodules:
            return importlib.import_module(f"{package_name}.{name}")
        if name in owner:
            value = getattr(importlib.import_module(f"{package_name}.{owner[name]}"), name)
            if name == owner[name]:
                sys.modules[package_name].__dict__[name] = value
            return value
        raise AttributeError(f"No {package_name} attribute {name}")

    names = sorted(submodules | owner.keys())
    return __getattr__, lambda: names, list(names)


def attach_stub(package_name, filename):
    with open(f"{os.path.splitext(filename)[0]}.pyi") as f:
        tree = ast.parse(f.read())
    submodules, attrs = set(), {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.module:
                attrs.setdefault(node.module, []).extend(a.name for a in node.names)
            else:
                submodules.update(a.name for a in node.names)
    return attach(package_name, submodules, attrs)
