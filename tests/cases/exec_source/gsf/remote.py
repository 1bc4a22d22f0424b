from gsf import instantiator

_GENERATED = instantiator.instantiate_plain()
forward = _GENERATED.forward
