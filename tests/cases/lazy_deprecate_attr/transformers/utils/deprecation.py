"""A stand-in for transformers.utils.deprecation: deprecate_attr as transformers ships it."""
import warnings
from typing import Any, Callable


def deprecate_attr(
    module_name: str,
    remove: dict[str, tuple[Any, str]] | None = None,
    rename: dict[str, tuple[Any, str]] | None = None,
) -> Callable[[str], Any]:
    remove = remove or {}
    rename = rename or {}
    if duplicates := remove.keys() & rename.keys():
        raise ValueError(f"Attributes {sorted(duplicates)} are passed in both `remove` and `rename`.")

    def __getattr__(name: str) -> Any:
        if name in remove:
            replacement, version = remove[name]
            message = f"`{name}` is deprecated and will be removed in version {version}."
        elif name in rename:
            replacement, version = rename[name]
            message = f"`{name}` is deprecated and will be removed in version {version}."
            if hasattr(replacement, "__name__"):
                message += f" Use `{replacement.__name__}` instead."
        else:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        warnings.warn(message, FutureWarning, stacklevel=2)
        return replacement

    return __getattr__
