from tpl.templates import NOPE  # noqa: F401
