"""Who can observe an effect: where the state it changes is read (pure; sources passed in).

An effect matters for lazy imports only if something can see that it has not happened yet:
- process-wide state and other packages' objects (sys.path, warning filters, json.dumps):
  always, unless the entry is filed under an object of the importing module (a pickling
  reducer for its own class: only code holding that class can ask for it);
- state of an analysed module: when some code reads it. Reads are found by name in the
  analysed sources (strings and comments masked), classified by what surrounds them: a
  lookup by key (`REG[k]`, `REG.get(k)`, `k in REG`) sees an entry filed under the importing
  module's own object only by holding that object, so only a read of the whole (iteration,
  len, items, passing it on) sees it; a public name nobody here reads can still be read by
  code outside (a private one cannot);
- a subclass: only through `__subclasses__()`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..static.skim import masked
from .effects import Effect

_WRITE_AFTER = re.compile(rb"\s*(?:\[[^\]\n]*\]\s*)?(?:=(?!=)|\+=|\|=|-=)")
_MUTATOR_AFTER = re.compile(rb"\.(?:append|extend|insert|add|update|setdefault|register|"
                            rb"appendleft|discard|remove|__setitem__)\s*\(")
_KEYED_AFTER = re.compile(rb"\s*\[|\.(?:get|pop|__getitem__|__contains__)\s*\(")
_BEFORE_IN = re.compile(rb"(?<![\w.])\bin\s*$")
_FOR_IN = re.compile(rb"\bfor\s+[\w\s,()\[\]*]+?\s+in\s*$")
_DEFINITION = re.compile(rb"^\s*(?:global|nonlocal|del|import|from|def|class)\b")
_WORD = re.compile(rb"\w+")


@dataclass(frozen=True, slots=True)
class Read:
    module: str
    path: str
    line: int
    how: str  # "keyed" | "whole"


@dataclass(frozen=True, slots=True)
class Verdict:
    observable: bool
    why: str
    reader: Read | None = None


def words_of(source: bytes) -> frozenset[bytes]:
    """The words of a source with its strings and comments masked (what reads are found in):
    `_WORD.findall`, as every other byte made a space and split (a few times faster)."""
    return frozenset((masked(source) or source).translate(_SPACE_BUT_WORDS).split())


class Readers:
    """Finds reads of names in the analysed sources, once per name."""

    def __init__(self, sources: dict, paths: dict, words: dict | None = None):
        self.sources = sources  # module -> bytes
        self.paths = paths
        self._of = words  # module -> words_of(its source), when the caller has them
        self._masked: dict[str, bytes] = {}
        self._found: dict[str, list[Read]] = {}
        self._memo: dict = {}
        self._words: dict[bytes, list[str]] | None = None  # word -> modules (sorted) naming it

    def _naming(self, word: bytes):
        """The modules whose masked text holds `word` as a whole word, in name order; every
        module when `word` is not all word characters (the index cannot tell). Why an index:
        one pass over the sources instead of a substring search of each per name."""
        if _WORD.fullmatch(word) is None:
            return sorted(self.sources)
        if self._words is None:
            words: dict[bytes, list[str]] = {}
            for module in sorted(self.sources):
                found = self._of.get(module) if self._of is not None else None
                for w in found if found is not None else words_of(self._text(module)):
                    words.setdefault(w, []).append(module)
            self._words = words
        return self._words.get(word, ())

    def memo(self, key, make):
        found = self._memo.get(key, self)
        if found is self:
            found = self._memo[key] = make()
        return found

    def mentions(self, module: str, name: str) -> bool:
        word = name.encode()
        return word in self.sources[module] and re.search(
            rb"(?<![\w])" + re.escape(word) + rb"(?![\w])", self._text(module)) is not None

    def _text(self, module: str) -> bytes:
        text = self._masked.get(module)
        if text is None:
            raw = self.sources[module]
            text = self._masked[module] = masked(raw) or raw
        return text

    def reads(self, name: str) -> list[Read]:
        found = self._found.get(name)
        if found is not None:
            return found
        found = []
        word = name.encode()
        for module in self._naming(word):
            if word not in self.sources[module]:
                continue
            text = self._text(module)
            line, counted = 1, 0
            for start in _whole_words(text, word):
                how = _classify(text, start, start + len(word))
                if how is not None:
                    line += text.count(b"\n", counted, start)
                    counted = start
                    found.append(Read(module, self.paths[module], line, how))
        self._found[name] = found
        return found


_IS_WORD = bytes(1 if _WORD.fullmatch(bytes([b])) else 0 for b in range(256))
_SPACE_BUT_WORDS = bytes(b if _IS_WORD[b] else 0x20 for b in range(256))


def _whole_words(text: bytes, word: bytes):
    """Where `word` occurs with no word character either side, left to right and not
    overlapping (as a regex `(?<!\\w)word(?!\\w)` finds them; bytes.find is faster)."""
    n, size = len(word), len(text)
    at = text.find(word)
    while at >= 0:
        end = at + n
        if (at == 0 or not _IS_WORD[text[at - 1]]) and (end == size or not _IS_WORD[text[end]]):
            yield at
            at = text.find(word, end)
        else:
            at = text.find(word, at + 1)


def _classify(text: bytes, start: int, end: int) -> str | None:
    """How the occurrence at text[start:end] uses the name: None for a write, a binding or
    a definition; "keyed" for a lookup by key; "whole" for anything else."""
    line_start = text.rfind(b"\n", 0, start) + 1
    before = text[line_start:start]
    if _DEFINITION.match(before) or before.rstrip().endswith(b"def") \
            or before.rstrip().endswith(b"class"):
        return None
    after = text[end:end + 200]
    if _WRITE_AFTER.match(after) or _MUTATOR_AFTER.match(after):
        return None
    if _FOR_IN.search(before):
        return "whole"
    if _KEYED_AFTER.match(after) or _BEFORE_IN.search(before):
        return "keyed"
    return "whole"


_RECEIVER = re.compile(rb"([A-Za-z_][\w]*)\s*\.\s*$")


def _receiver(readers: Readers, read: Read) -> str | None:
    """The name `X` of `X.__subclasses__()` at the read, if it is a plain name."""
    line = readers._text(read.module).split(b"\n")[read.line - 1]
    at = line.find(b"__subclasses__")
    found = _RECEIVER.search(line[:at]) if at >= 0 else None
    return found.group(1).decode() if found else None


def _lists_subclasses(effect: Effect, readers: Readers, lineage) -> Read | None:
    """A `__subclasses__()` call that can list the class the effect's module defines: one
    on the base (or an ancestor of it) by name, or on a value (a parameter, `cls`) in a
    module whose source names the base or an ancestor (where the value can come from)."""
    names = set(lineage(effect.state[0], effect.state[1]))
    for read in readers.reads("__subclasses__"):
        if read.module == effect.module:
            continue
        receiver = readers.memo(("receiver", read), lambda: _receiver(readers, read))
        if receiver in names:
            return read
        if receiver is None or receiver[:1].islower() or receiver in ("cls", "self"):
            if any(readers.memo(("names", read.module, n), lambda n=n: readers.mentions(
                    read.module, n)) for n in names):
                return read
    return None


def observability(effect: Effect, readers: Readers, analysed, lineage=None) -> Verdict:
    """Whether code can see that the effect did not happen (yet), and who. `lineage(module,
    class)`: the names of the class and of its analysed ancestors."""
    owner = effect.state[0]
    if effect.kind == "subclass":
        found = _lists_subclasses(effect, readers, lineage or (lambda m, c: [c]))
        if found is not None:
            return Verdict(True, f"{found.module} lists subclasses", found)
        return Verdict(False, f"nothing in the analysed code lists the subclasses of "
                              f"{effect.state[0]}.{effect.state[1]}")
    if owner == "process" or owner not in analysed:
        if effect.keyed_by_own:
            return Verdict(False, f"filed under an object of {effect.module}, which only code "
                                  "that imported it can hold")
        return Verdict(True, "process-wide state: every later import and call sees it")
    name = effect.state[-1] if len(effect.state) > 1 else owner.rpartition(".")[2]
    found = [r for r in readers.reads(name)
             if not (r.module == effect.module and r.line == effect.line)
             and (r.how == "whole" or not effect.keyed_by_own)]
    if effect.site is not None:
        found = [r for r in found if (r.path, r.line) != effect.site]
    if found:
        best = sorted(found, key=lambda r: (r.module == effect.module, r.module, r.line))[0]
        return Verdict(True, f"read by {best.module}", best)
    if effect.keyed_by_own:
        return Verdict(False, f"filed under an object of {effect.module}, and nothing reads "
                              f"all of {'.'.join(effect.state)}")
    if not name.startswith("_"):
        return Verdict(True, f"{'.'.join(effect.state)} is public: code outside the analysed "
                             "package can read it")
    return Verdict(False, f"nothing reads {'.'.join(effect.state)}")
