"""`dask.config.get(key, default)`, modelled as dask documents it, when dask's own sources are
analysed: in the ordinary environment (no `DASK_*` variable, no configuration file in
`~/.config/dask`, `/etc/dask` or `$DASK_CONFIG`) the configuration is the defaults dask ships
in `dask/dask.yaml`, and `get` walks it by the dotted key, `_` and `-` alike
(`canonical_name`), returning `default` where the key is missing.

The file is read, once, with `yaml.safe_load` (which builds plain data, never objects)."""
from __future__ import annotations

import hashlib
import os

CONFIG_MODULE = "dask.config"
DEFAULTS_FILE = "dask.yaml"
MAX_BYTES = 1 << 20
_UNREAD = object()
_SCALARS = (str, int, float, bool, type(None))


class DaskDefaults:
    """The defaults file beside an analysed `dask/config.py` (IO, at first use)."""

    def __init__(self, config_path: str | None):
        self.path = os.path.join(os.path.dirname(config_path), DEFAULTS_FILE) \
            if config_path else None
        self._data = _UNREAD
        self._digest = ""

    def data(self):
        """The parsed mapping, or None when there is none to read as plain data."""
        if self._data is _UNREAD:
            self._data = None
            raw = None
            if self.path is not None:
                try:
                    with open(self.path, "rb") as f:
                        raw = f.read(MAX_BYTES + 1)
                except OSError:
                    raw = None
            if raw is not None and len(raw) <= MAX_BYTES:
                try:
                    import yaml  # libcst's dependency too; most checks never need it
                    loaded = yaml.safe_load(raw)
                except Exception:  # noqa: BLE001 - yaml.YAMLError, a too deep document: no model
                    loaded = None
                if isinstance(loaded, dict):
                    self._data = loaded
                    self._digest = hashlib.sha256(raw).hexdigest()[:16]
        return self._data

    def key(self) -> str:
        """What results that read the configuration depend on beyond their modules."""
        self.data()
        return self._digest

    def get(self, key: str, default, has_default: bool):
        """(True, the value) `get(key, default)` returns, or (False, None) when not known
        as plain data (a container, a missing key without default, no file)."""
        result = self.data()
        if result is None or key.__class__ is not str:
            return False, None
        for part in key.split("."):
            if not isinstance(result, dict):
                return (True, default) if has_default else (False, None)
            part = canonical_name(part, result)
            if part not in result:
                return (True, default) if has_default else (False, None)
            result = result[part]
        return (True, result) if isinstance(result, _SCALARS) else (False, None)


def canonical_name(k: str, config: dict) -> str:
    """dask.config.canonical_name: `k`, or its `_`/`-` spelling where only that one is set."""
    if k in config:
        return k
    alt = k.replace("_", "-") if "_" in k else k.replace("-", "_")
    return alt if alt in config else k

