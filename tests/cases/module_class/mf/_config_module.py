import types


class ConfigModule(types.ModuleType):
    def patch(self, **changes):
        return changes


def install_config_module(module):
    """Serve the module's attributes through a class (torch.utils._config_module)."""
    class ConfigModuleInstance(ConfigModule):
        pass

    module.__class__ = ConfigModuleInstance
