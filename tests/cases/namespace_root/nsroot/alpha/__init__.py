# namespace: a regular subpackage of the namespace package nsroot; re-exports A.
from .mod import A
