from cfgplug.quiet import VALUE
