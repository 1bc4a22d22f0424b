from cfgplug.io import DEFAULT


def read(path):
    return DEFAULT
