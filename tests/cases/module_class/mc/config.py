import sys

from ._config_module import install_config_module

debug = False

install_config_module(sys.modules[__name__])
