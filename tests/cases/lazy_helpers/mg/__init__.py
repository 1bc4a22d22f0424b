# R24: matplotlib's @caching_module_getattr class __getattr__ with property entries
from . import _api


def _get_version():
    from . import _version
    return _version.version


@_api.caching_module_getattr
class __getattr__:
    __version__ = property(lambda self: _get_version())
    __version_info__ = property(lambda self: tuple(self.__version__.split(".")))


from . import early  # noqa: E402,F401  (asks __version__ while READY is not bound yet)

READY = True
