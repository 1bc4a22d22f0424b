import importlib.abc
import importlib.util
import sys

from gsf.templates import template

_PREFIX = "_generated_"


class _StringLoader(importlib.abc.SourceLoader):
    """Runs a generated source."""

    def __init__(self, data: str) -> None:
        self.data = data

    def get_source(self, fullname: str) -> str:
        return self.data

    def get_data(self, path: str) -> bytes:
        return self.data.encode("utf-8")

    def get_filename(self, fullname: str) -> str:
        return f"<{fullname}>.py"

    def exec_module(self, module) -> None:
        source = self.get_source(module.__name__)
        filename = self.get_filename(module.__name__)
        code = compile(source, filename, "exec", dont_inherit=True)
        exec(code, module.__dict__)


def _instantiate(generated_name, str_dict, with_forward):
    loader = _StringLoader(template(with_forward).format(**str_dict))
    spec = importlib.util.spec_from_loader(generated_name, loader, origin="generated")
    if spec is None:
        raise AssertionError
    module = importlib.util.module_from_spec(spec)
    sys.modules[generated_name] = module
    loader.exec_module(module)
    return module


def instantiate_plain():
    generated_name = f"{_PREFIX}{'gsf'}_plain"
    str_dict = dict(assign="module_cls = None", args="*args", kwargs="**kwargs",
                    arg_types="*args, **kwargs", arrow="")
    return _instantiate(generated_name, str_dict, True)


def run_source(name, text):
    loader = _StringLoader(text)
    spec = importlib.util.spec_from_loader(name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module
