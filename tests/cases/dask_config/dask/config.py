import os

config: dict = {}


def canonical_name(k, cfg):
    if k in cfg:
        return k
    alt = k.replace("_", "-") if "_" in k else k.replace("-", "_")
    return alt if alt in cfg else k


def get(key, default=None):
    result = config
    for k in key.split("."):
        k = canonical_name(k, result)
        try:
            result = result[k]
        except (TypeError, KeyError):
            return default
    return result


def _load(path):
    # the mappings-and-scalars part of YAML that dask.yaml uses (dask itself reads it with
    # yaml.safe_load; this fixture runs without PyYAML)
    out: dict = {}
    stack = [(-1, out)]
    with open(path) as f:
        for raw in f:
            line = raw.split("#", 1)[0].rstrip()
            if not line.strip():
                continue
            indent = len(line) - len(line.lstrip())
            key, _, value = line.strip().partition(":")
            while stack[-1][0] >= indent:
                stack.pop()
            parent = stack[-1][1]
            value = value.strip()
            if not value:
                parent[key] = {}
                stack.append((indent, parent[key]))
            else:
                parent[key] = None if value == "null" else value.strip('"')
    return out


def _initialize():
    config.update(_load(os.path.join(os.path.dirname(__file__), "dask.yaml")))


_initialize()
