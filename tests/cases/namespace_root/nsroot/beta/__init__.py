# namespace: a regular subpackage of the namespace package nsroot; re-exports B.
from .mod import B
