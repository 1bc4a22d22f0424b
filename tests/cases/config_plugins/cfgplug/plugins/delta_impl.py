from cfgplug.late import LATE
