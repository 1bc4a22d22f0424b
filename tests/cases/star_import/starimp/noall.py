# R9: no __all__: a star import copies only the public names bound at that moment.
early = 1

from starimp import user_noall  # noqa: E402,F401

late = 2
