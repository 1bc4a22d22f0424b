from __future__ import annotations

try:
    import typing  # noqa: F401 - inside try: eager, so typing has finished loading
except ImportError:
    pass
import dataclasses
from typing import ClassVar  # lazy mode: typing is loaded, so this binds typing.ClassVar itself


@dataclasses.dataclass
class Record:
    # dataclasses looks the string "ClassVar" up in this module's __dict__: a proxy there
    # would make `kind` a field with a default, and `name` a non-default after it (TypeError)
    kind: ClassVar[str] = "record"
    name: str
