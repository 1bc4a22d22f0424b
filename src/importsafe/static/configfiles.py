"""`configparser.ConfigParser()` / `RawConfigParser()` as pure code may use them at import time
(scikit-image's plugin `.ini` files): `read()` of files in a directory the code may list, whose
bytes the listing read at check time holds (discover.DirListing.texts), then `sections()`,
`options()`, `get()` and the like. The text is parsed by the standard library's own
configparser, so the values are CPython's; parsing never runs code.

A read of a file the listing did not keep (too large, no configuration suffix), of a
relative path or of a directory the code may not list is no value (NoValue); so are the
errors configparser raises (a missing section, a bad interpolation), which purefn does not
model as exceptions."""
from __future__ import annotations

import codecs
import configparser
import posixpath

from .purefn import NoValue, PureObject, _DATA

# the keyword arguments of the constructors whose values are plain data
_OPTIONS = {"allow_no_value": bool, "strict": bool, "empty_lines_in_values": bool,
            "default_section": str, "delimiters": tuple, "comment_prefixes": tuple,
            "inline_comment_prefixes": tuple}
CONFIG_CLASSES = {"configparser.ConfigParser": configparser.ConfigParser,
                  "configparser.RawConfigParser": configparser.RawConfigParser}


def new_parser(qualified: str, args, kwargs, listings, allowed) -> "ConfigValue":
    """What `ConfigParser(...)` returns, or NoValue for arguments that are not plain data."""
    if len(args) > 1 or args and not (args[0] is None or _str_dict(args[0])):
        raise NoValue(f"{qualified}() arguments")
    options = {}
    for key, value in kwargs.items():
        kind = _OPTIONS.get(key)
        if key == "defaults" and (value is None or _str_dict(value)):
            options[key] = value
        elif kind is None or not isinstance(value, kind) or kind is tuple and not all(
                isinstance(v, str) for v in value):
            raise NoValue(f"{qualified}({key}=...)")
        else:
            options[key] = value
    if args:
        options["defaults"] = args[0]
    try:
        parser = CONFIG_CLASSES[qualified](**options)
    except (TypeError, ValueError) as err:
        raise NoValue(f"{qualified}() arguments") from err
    return ConfigValue(parser, listings, allowed)


def _str_dict(value) -> bool:
    return value.__class__ is dict and all(k.__class__ is str and v.__class__ is str
                                           for k, v in value.items())


class ConfigValue(PureObject):
    """A parser the evaluation made; `read()` changes it, so it is never shared beyond that
    evaluation (`mutable`)."""

    __slots__ = ("parser", "listings", "allowed")
    mutable = True
    takes_keywords = True

    def __init__(self, parser, listings, allowed):
        self.parser, self.listings, self.allowed = parser, listings, allowed

    def call(self, method: str, args, sorting: bool = False, kwargs=None):
        kwargs = kwargs or {}
        if not all(isinstance(a, _DATA) or a.__class__.__name__ == "PathValue" for a in args) \
                or not all(isinstance(v, _DATA) for v in kwargs.values()):
            raise NoValue(f"ConfigParser.{method}() arguments")
        try:
            if method == "read":
                return self._read(*args, **kwargs)
            if method == "read_string" and len(args) == 1 and isinstance(args[0], str) and \
                    not kwargs:
                self.parser.read_string(args[0])
                return None
            if method in ("sections", "defaults") and not args and not kwargs:
                found = getattr(self.parser, method)()
                return dict(found) if method == "defaults" else list(found)
            if method in ("options", "has_section") and len(args) == 1 and not kwargs:
                return getattr(self.parser, method)(*args)
            if method == "has_option" and len(args) == 2 and not kwargs:
                return self.parser.has_option(*args)
            if method in ("get", "getint", "getfloat", "getboolean") and len(args) == 2 and \
                    set(kwargs) <= {"raw", "fallback"}:
                return getattr(self.parser, method)(*args, **kwargs)
            if method == "items" and len(args) == 1 and set(kwargs) <= {"raw"}:
                return [tuple(item) for item in self.parser.items(*args, **kwargs)]
        except (configparser.Error, ValueError, TypeError, KeyError) as err:
            raise NoValue(f"ConfigParser.{method}() raises {err.__class__.__name__}") from err
        raise NoValue(f"ConfigParser.{method}()")

    def _read(self, filenames, encoding=None):
        if encoding is not None and not isinstance(encoding, str):
            raise NoValue("ConfigParser.read() encoding")
        try:
            codec = codecs.lookup(encoding or "utf-8").name  # the ordinary locale: UTF-8
        except LookupError as err:
            raise NoValue(f"ConfigParser.read() encoding {encoding!r}") from err
        names = [filenames] if isinstance(filenames, str) or \
            filenames.__class__.__name__ == "PathValue" else filenames
        if not isinstance(names, (list, tuple)):
            raise NoValue("ConfigParser.read() of no file names")
        read = []
        for name in names:
            path = name if isinstance(name, str) else name.text()
            if not isinstance(path, str) or not path.startswith("/") or self.listings is None \
                    or self.allowed is None:
                raise NoValue("ConfigParser.read() of a path not in the analysed tree")
            data = self.listings.text(path, self.allowed, "ConfigParser.read")
            if data is None:
                continue  # missing: configparser skips a file it cannot open
            try:
                text = data.decode(codec)
            except UnicodeDecodeError as err:
                raise NoValue(f"ConfigParser.read() of {path}: not {codec}") from err
            # as configparser.read: universal newlines, then the file's lines
            text = text.replace("\r\n", "\n").replace("\r", "\n")
            self.parser.read_string(text, source=path)
            read.append(path if isinstance(name, str) else posixpath.normpath(path))
        return read
