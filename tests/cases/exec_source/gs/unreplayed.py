import importlib.abc
import importlib.util


class _CountingLoader(importlib.abc.Loader):
    runs = 0

    def __init__(self, data):
        self.data = data

    def exec_module(self, module):
        _CountingLoader.runs += 1
        exec(compile(self.data, "<counted>", "exec", dont_inherit=True), module.__dict__)


loader = _CountingLoader("import gs.rpc\n")
spec = importlib.util.spec_from_loader("_counted_gs", loader)
module = importlib.util.module_from_spec(spec)
loader.exec_module(module)
