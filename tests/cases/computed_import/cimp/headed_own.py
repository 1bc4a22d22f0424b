# R20: the same with the analysed package's own name first: which module is not known
import importlib

mod = importlib.import_module(f"cimp.{chr(102) if id(0) else 'g'}")
