"""Seeded random packages with import-time effects, built on randpkg's cycles.

`generate(seed)` takes randpkg's package ``rp`` and adds ``rp/effreg.py`` (registries, a
patch target; it imports nothing, so importing it from anywhere cannot change randpkg's
outcomes), then appends to some modules, after everything randpkg wrote, one of:
- ``reg``: ``_effreg.REG['<module>'] = ...`` (an entry keyed by a string, public registry);
- ``deco``: a class registered by ``@_effreg.register('<module>')``, which ``lookup`` reads;
- ``patch``: ``_effreg.Target.<attr> = ...`` (a patch of another module's class);
- ``hook``: ``_effreg.HOOKS.append(...)`` (a list a function iterates);
- ``own``: a cache dict of the module's own (no effect);
- ``keyed``: ``_effreg.BY_TYPE[<own class>] = ...`` read only by key (not observable).

`SCENARIO` imports ``rp`` and prints every observable trace of those effects (and an escaping
exception as ``EXC <type>``), so a lost or moved effect changes its output.

    python tests/randeffects.py SEED OUTDIR
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import randpkg

KINDS = ("reg", "deco", "patch", "hook", "own", "keyed")
EFFECTFUL = {"reg", "deco", "patch", "hook"}
EFFREG = '''\
"""Registries the random package's modules fill while they are imported."""
REG = {}
_BY_NAME = {}
HOOKS = []
BY_TYPE = {}


class Target:
    pass


def register(name):
    def deco(cls):
        _BY_NAME[name] = cls
        return cls
    return deco


def lookup(name):
    return _BY_NAME.get(name)


def run_hooks():
    return [hook() for hook in HOOKS]


def kind_of(obj):
    return BY_TYPE[type(obj)]
'''
SCENARIO = '''\
import rp
import rp.effreg as e
print("reg", sorted(e.REG))
print("deco", sorted(n for n in e._BY_NAME if e.lookup(n) is not None))
print("patch", sorted(a for a in vars(e.Target) if a.startswith("p_")))
print("hooks", sorted(e.run_hooks()))
'''


def _effect(kind: str, module: str, tag: str) -> str:
    head = "\nimport rp.effreg as _effreg\n"
    if kind == "reg":
        return head + f"_effreg.REG[{module!r}] = {tag!r}\n"
    if kind == "deco":
        return head + f"\n@_effreg.register({module!r})\nclass _Plugin_{tag}:\n    pass\n"
    if kind == "patch":
        return head + f"_effreg.Target.p_{tag} = {module!r}\n"
    if kind == "hook":
        return head + f"\ndef _hook_{tag}():\n    return {module!r}\n\n" \
                      f"_effreg.HOOKS.append(_hook_{tag})\n"
    if kind == "own":
        return f"\n_own_cache_{tag} = {{}}\n_own_cache_{tag}['k'] = {module!r}\n"
    return head + f"\nclass _Own_{tag}:\n    pass\n\n_effreg.BY_TYPE[_Own_{tag}] = {module!r}\n"


def generate(seed: int) -> tuple[dict[str, str], dict[str, str]]:
    """(files, module -> effect kind added to it)."""
    files = randpkg.generate(seed)
    rng = random.Random(f"effects-{seed}")
    added: dict[str, str] = {}
    for path in sorted(files):
        if path == "rp/__init__.py" or rng.random() < 0.5:
            continue
        module = path[:-3].replace("/__init__", "").replace("/", ".")
        kind = rng.choice(KINDS)
        tag = f"{module.replace('.', '_')}"
        files[path] = files[path].rstrip("\n") + "\n" + _effect(kind, module, tag)
        added[module] = kind
    files["rp/effreg.py"] = EFFREG
    return files, added


def write(files: dict[str, str], root: Path) -> Path:
    return randpkg.write(files, root)


if __name__ == "__main__":
    seed, out = int(sys.argv[1]), Path(sys.argv[2])
    files, added = generate(seed)
    print(write(files, out), added)
