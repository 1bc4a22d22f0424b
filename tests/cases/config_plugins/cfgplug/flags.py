import configparser
import importlib
import os

HERE = os.path.dirname(__file__)


def _read():
    parser = configparser.RawConfigParser()
    # local.ini does not exist: configparser skips a file it cannot open
    parser.read([os.path.join(HERE, "flags.ini"), os.path.join(HERE, "local.ini")],
                encoding="utf-8")
    names = [parser.get("plugins", key) for key in parser.options("plugins")]
    return names, parser.getboolean("switches", "strict", fallback=True)


NAMES, STRICT = _read()
for _name in NAMES:
    importlib.import_module("cfgplug.plugins." + _name)
if STRICT:
    import cfgplug.missing_module  # noqa: F401
