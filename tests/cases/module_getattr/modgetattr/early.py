# R10: a PEP 562 __getattr__ bound before the cycle point answers for names not bound yet.
_DEFAULTS = {"X": "default X"}


def __getattr__(name):
    try:
        return _DEFAULTS[name]
    except KeyError:
        raise AttributeError(name) from None


from modgetattr import user_early  # noqa: E402,F401

X = "real X"
