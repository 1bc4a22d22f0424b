import types

# "namespace::name" -> operator: what the dispatcher knows (C++ registers aten's at load)
_registry = {"aten::add": "aten.add"}


class _OpNamespace(types.ModuleType):
    def __init__(self, name):
        super().__init__("torch.ops." + name)
        self.name = name

    def __getattr__(self, op_name):
        key = f"{self.name}::{op_name}"
        if key not in _registry:
            raise AttributeError(
                f"'_OpNamespace' '{self.name}' object has no attribute '{op_name}'")
        setattr(self, op_name, _registry[key])
        return _registry[key]


class _Ops(types.ModuleType):
    def __init__(self):
        super().__init__("torch.ops")
        self.loaded_libraries = set()

    def __getattr__(self, name):
        namespace = _OpNamespace(name)
        setattr(self, name, namespace)
        return namespace


ops: _Ops = _Ops()
