"""What every renderer shows of the analysed tree: source lines read safely, and text with its
control and bidirectional characters escaped.

The tree is input, possibly hostile: a file may be a FIFO or a device, be huge, name an
encoding Python refuses for source (`# coding: utf-16`), or hold escape sequences and U+202E
in its comments, names and `__all__` strings. `source_line` never raises and reads only
regular files; `printable` makes any string safe to put on a terminal, in an annotation or a
page (`linecache` is not used: it raises on such files and keeps what it read forever).
"""
from __future__ import annotations

import io
import os
import re
import stat
import tokenize
from functools import lru_cache

from ..static.files import read_regular

MAX_SOURCE = 100  # characters of a source line shown
MAX_FILE = 8 << 20  # a larger file is not read for its lines

# C0 and C1 controls, DEL, and the characters that reorder or hide text: bidirectional
# embeddings, overrides and isolates, marks, zero-width characters, line and paragraph
# separators (the "Trojan Source" set and friends)
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u115f\u1160\u17b4\u17b5\u180e"
                     "\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff"
                     "\uffa0\ufff9-\ufffb\U000e0000-\U000e0fff]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_LINE_BREAK = re.compile("\r\n|\r|\n")


def _escape(m: re.Match) -> str:
    ch = m.group()
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else (
        f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")


def printable(text: str | None) -> str:
    """`text` with every control, bidirectional or invisible formatting character written
    as a Python escape (`\\x1b`, `\\u202e`): what it says stays readable, nothing in it
    acts on the terminal or reorders what is around it."""
    if not text:
        return text or ""
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


def printable_lines(text: str) -> str:
    """As printable, line by line: newlines kept (a child's output), the rest escaped."""
    return "\n".join(printable(line) for line in text.replace("\r\n", "\n").split("\n"))


def shorten(text: str, limit: int = MAX_SOURCE) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def source_line(path: str, line: int) -> str:
    """Line `line` of the source file `path`, stripped, shortened and printable; "" when it
    cannot be had (no such file or line, not a regular file, too large, undecodable)."""
    if not path or not line or line < 1:
        return ""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return ""
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE:
        return ""
    lines = _lines(path, st.st_mtime_ns, st.st_size, st.st_ino)
    if line > len(lines):
        return ""
    return printable(shorten(lines[line - 1].strip()))


@lru_cache(maxsize=256)
def _lines(path: str, mtime_ns: int, size: int, inode: int) -> tuple[str, ...]:
    """The lines of a file, decoded as Python would (its coding cookie, else UTF-8); a
    cookie Python refuses, or bytes that do not decode, give the bytes decoded as UTF-8 with
    replacement characters. Keyed by the file's stat, so an edited file is read again."""
    try:
        data = read_regular(path, MAX_FILE)
    except OSError:
        return ()
    # lines as the compiler counts them: str.splitlines would also split at \f, \x1c, \u2028
    return tuple(_LINE_BREAK.split(decode_source(data)))


def decode_source(data: bytes) -> str:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        if encoding.replace("_", "-").lower().startswith(("utf-16", "utf-32")):
            raise LookupError(encoding)  # Python refuses these for source
        return data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError, ValueError):
        return data.decode("utf-8", "replace")


def file_lines(path: str) -> tuple[str, ...]:
    """Every line of a regular source file (decoded as source_line does); () otherwise."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return ()
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE:
        return ()
    return _lines(path, st.st_mtime_ns, st.st_size, st.st_ino)


_GUARD = re.compile(r"(?:el)?if\s+(?:[\w.]+\.)?TYPE_CHECKING\s*:")
_GETATTR = re.compile(r"(?:async\s+)?def\s+__getattr__\s*\(")


def under_type_checking(lines: tuple[str, ...], line: int) -> bool:
    """Whether line `line` is in the body of an `if TYPE_CHECKING:`: the nearest line above
    it that is indented less opens that block (a guess from the text alone, which may miss
    a block but never invents one)."""
    if not 0 < line <= len(lines):
        return False
    text = lines[line - 1]
    depth = len(text) - len(text.lstrip())
    for above in reversed(lines[:line - 1]):
        stripped = above.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(above) - len(stripped) < depth:
            return bool(_GUARD.match(stripped))
    return False


def module_getattr(lines: tuple[str, ...]) -> int | None:
    """The line of a module-level `def __getattr__(` (PEP 562), if the module has one."""
    return next((i for i, text in enumerate(lines, 1) if _GETATTR.match(text)), None)


def binding_hint(name: str | None, path: str, line: int) -> tuple[str, int, str]:
    """Where a missing name is bound, as a report says it: (file, line, what is there).
    A binding under `if TYPE_CHECKING:` does not run; when the module has a `__getattr__`,
    that is where the name comes from at run time, and the hint points there instead."""
    lines = file_lines(path)
    shown = printable(name or "")
    if not under_type_checking(lines, line):
        return path, line, f"'{shown}' is bound at"
    getattr_line = module_getattr(lines)
    if getattr_line is not None:
        return path, getattr_line, (f"'{shown}' is bound only under `if TYPE_CHECKING:` "
                                    f"(line {line}); at run time it comes from the module's "
                                    "__getattr__ at")
    return path, line, f"'{shown}' is bound only under `if TYPE_CHECKING:`, which never runs, at"
