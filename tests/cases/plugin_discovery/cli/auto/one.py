# R21: reads ALL from the package that imports it.
from cli.auto import ALL  # noqa: F401
