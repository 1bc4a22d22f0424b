from cfgplug.io import DEFAULT
