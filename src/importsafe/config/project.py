"""Which paths of a project to analyse when nobody said: the configuration's `paths`, else the
packages at the project root or under `src/`, or where a setuptools `package-dir` mapping puts
them. Shared by the command line, the pytest plugin and `importsafe diff` (IO: directory
listings, pyproject.toml and setup.cfg only)."""
from __future__ import annotations

import os
from dataclasses import replace

from .settings import Config, ConfigError, find_config, load_config, parse_modes, read_table
from ..static import package_dirs

# directories at a project root that hold packages but are not the project's code
NOT_CODE = frozenset({"tests", "test", "testing", "docs", "doc", "examples", "example",
                      "benchmarks", "benchmark", "build", "dist", "scripts", "tools",
                      "site-packages", "node_modules"})


class NoPackages(ConfigError):
    """No configured paths and no packages where they are looked for."""


def default_paths(root: str) -> tuple[str, ...]:
    """The directories a setuptools `package-dir` mapping of the project at `root` names (the
    mapped packages' directories, and the `""` source root); else `root/src` when it holds
    Python, else every regular package directly under `root` (a directory with
    `__init__.py`) except tests, docs, examples and the like."""
    mapped = package_dirs.read(root) if os.path.isdir(root) else None
    if mapped is not None:
        found = [d for _, d in mapped.dirs]
        if mapped.root is not None and _holds_python(mapped.root):
            found.append(mapped.root)
        if found:
            return tuple(dict.fromkeys(found))
    src = os.path.join(root, "src")
    if os.path.isdir(src) and _holds_python(src):
        return (src,)
    out = []
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return ()
    for name in names:
        path = os.path.join(root, name)
        if name.isidentifier() and name not in NOT_CODE and not name.startswith(".") and \
                os.path.isfile(os.path.join(path, "__init__.py")):
            out.append(path)
    return tuple(out)


def _holds_python(directory: str) -> bool:
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return False
    return any((e.name.endswith(".py") and e.is_file()) or
               (e.is_dir() and e.name.isidentifier() and e.name != "__pycache__")
               for e in entries)


def project_config(root: str, modes: str | None = None, paths=(),
                   stop: str | None = None) -> tuple[Config, dict]:
    """The configuration of the project at `root` (the nearest pyproject.toml upwards, not
    above `stop` when given) with default paths filled in, and the raw `[tool.importsafe]`
    table. Raises ConfigError."""
    file = find_config(root)
    if file is not None and stop is not None and not _below(file, stop):
        file = None
    if file is None:
        config = Config(paths=tuple(paths), modes=parse_modes(modes or "normal,bare"))
        table: dict = {}
    else:
        config = load_config(tuple(paths), (), modes, None, root, config_file=file)
        table = read_table(file)
    if not config.paths:
        found = default_paths(root)
        if not found:
            raise NoPackages(f"no packages found at {root} or {os.path.join(root, 'src')} "
                              "(set [tool.importsafe] paths)")
        config = replace(config, paths=found)
    return config, table


def _below(path: str, directory: str) -> bool:
    path, directory = os.path.realpath(path), os.path.realpath(directory)
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)
