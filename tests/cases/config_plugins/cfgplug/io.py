from .manage import load, plugin_provides

# the section names come from the .ini files: `[alpha]` is in alpha_plugin.ini
_readers = (n for n in plugin_provides if n.startswith("a"))
for _name in _readers:
    if "read" in plugin_provides[_name]:
        load(_name)

DEFAULT = "png"
