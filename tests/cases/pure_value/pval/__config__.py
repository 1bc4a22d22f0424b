# scipy.__config__'s shape: a literal table cleaned by a recursive helper at import time
def _cleanup(d):
    """Drops empty values, recursively."""
    if isinstance(d, dict):
        return {k: _cleanup(v) for k, v in d.items() if v != '' and _cleanup(v) != ''}
    else:
        return d


def flags(cfg):
    names = []
    for key, value in cfg["deps"].items():
        if not value.get("found"):
            continue
        names.append(f"{key}-{value['version']}")
    return {"n": len(names), "names": names}


CONFIG = _cleanup(
    {
        "deps": {
            "blas": {
                "found": bool("True".lower().replace('false', '')),
                "version": "0.3",
                "has ilp64": bool(r"False".lower().replace('false', '')),
                "args": r"",
            },
            "lapack": {
                "found": bool("True".lower().replace('false', '')),
                "version": "0.3",
            },
        },
        "empty": "",
    }
)
