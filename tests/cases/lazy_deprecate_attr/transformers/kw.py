# imported first it works: proc has bound its __getattr__ when this asks it for Renamed;
# proc imported first fails by the cycle (its __getattr__ is not bound yet)
class NewKwargs:
    pass


from transformers.proc import Renamed  # noqa: E402,F401
