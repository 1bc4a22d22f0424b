import importlib.util
from pathlib import Path

spec = importlib.util.spec_from_file_location("em.base", str(Path(__file__).parent / "base.py"))
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
VALUE = module.BASE
