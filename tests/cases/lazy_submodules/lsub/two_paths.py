import lsub.pk.b
import lsub.pk.c  # rebinds `lsub`: the proxy of `import lsub.pk.b` is gone

VALUE = lsub.pk.b.X  # works lazily too: pk.b is a lazily imported submodule of pk
