import os.path
from configparser import ConfigParser
from glob import glob

plugin_provides = {}
plugin_module_name = {}
plugin_meta = {}


def _parse_config_file(filename):
    parser = ConfigParser()
    parser.read(filename)
    name = parser.sections()[0]
    meta = {}
    for opt in parser.options(name):
        meta[opt] = parser.get(name, opt)
    return name, meta


def _scan():
    here = os.path.dirname(__file__)
    for filename in sorted(glob(os.path.join(here, "plugins", "*.ini"))):
        name, meta = _parse_config_file(filename)
        if "provides" not in meta:
            continue
        plugin_meta[name] = meta
        plugin_provides[name] = [s.strip() for s in meta["provides"].split(",")]
        plugin_module_name[name] = os.path.basename(filename)[:-4]


_scan()


def load(name):
    modname = plugin_module_name[name]
    return __import__("cfgplug.plugins." + modname, fromlist=[modname])
