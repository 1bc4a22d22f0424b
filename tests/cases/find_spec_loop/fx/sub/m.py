from .. import b
