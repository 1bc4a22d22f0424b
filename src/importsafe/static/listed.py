"""Loops over a directory listing in the Simulator (`for f in os.listdir(os.path.dirname(
__file__)):`, `for f in sorted(glob.glob(...))`): the values the listing read at check time
gives (dirlisting.py), each pass replayed. Mixed into the Simulator, like ComputedImports.

Where CPython may write `__pycache__` into the directory before the loop runs, the listing
then holds one more entry, at a place the file system decides: the values are taken only
when the loop's body is shown to skip it (its first statement, an `if` decided on that
value, `continue`s, or it is the body's only statement and does nothing), and the loop
variable is not known after the loop.
"""
from __future__ import annotations

from .dirlisting import PYCACHE, Listings
from .events import Call, If, Jump, Use
from .frames import UNDECIDED, Frame_, evaluate_test
from .purefn import NoValue, PureObject, evaluate
from .state import OPAQUE


class ListedLoops:
    """The directory-listing half of ForEach (computed.py)."""

    def listed_values(self, ev, frame) -> tuple[tuple | None, bool]:
        """(the values a ForEach over ("eval", program) takes, or None when not known
        (`unlisted` says why, for the pass with unknown values); whether a `__pycache__`
        entry CPython may add was shown to be skipped)."""
        program = ev.source[1]
        saved = self.listed_now
        found = self.listed_now = Listings(self.program.listings)
        try:
            values = evaluate(program, self._pure_name, frame)
            if not isinstance(values, (list, tuple)):
                return None, False
            skipped = False
            if found.pycache:
                for variant in (1, 2):
                    self.listed_now = Listings(self.program.listings, variant)
                    other = evaluate(program, self._pure_name, frame)
                    if other == values:
                        continue
                    extra = _one_more(values, other)
                    if extra is None or not self._skips(ev, frame, extra):
                        self.unlisted = "the directory it lists may hold `__pycache__` when " \
                            "the loop runs (CPython writes bytecode there), and its body is " \
                            "not shown to skip it"
                        return None, False
                    skipped = True
        except NoValue:
            self.unlisted = found.refused or "the listing it iterates cannot be evaluated " \
                "statically"
            return None, False
        finally:
            self.listed_now = saved
        for directory, call in found.unsorted.items():
            self.order_read(directory, call, frame)
        return tuple(values), skipped

    def _skips(self, ev, frame, value) -> bool:
        """Does a pass of the loop with `value` do nothing (see the module's doc)?"""
        body = _acting(ev.body, ev.targets)
        if not body or body[0].__class__ is not If or ev.tuple_target:
            return False
        test = body[0]
        if test.cond == "unknown" and test.test is None:
            return False
        scratch = Frame_("function", frame.module, frozenset(ev.targets) | (
            frame.local_names if frame.kind == "function" else frozenset()),
            frame.global_names)
        if frame.kind == "function":
            scratch.locals.update(frame.locals)
        scratch.locals[ev.targets[0]] = ("lit", value)
        decided = {"true": True, "false": False}.get(test.cond, UNDECIDED)
        if decided is UNDECIDED:
            decided = evaluate_test(test.test, scratch,
                                    lambda name: self.global_value(name, scratch),
                                    lambda name: self.reads_builtin(name, scratch),
                                    lambda name, attrs: self.returned_literal(name, attrs,
                                                                              scratch),
                                    lambda program: self.pure_truth(program, scratch))
        if decided is True:
            first = _acting(test.body, ev.targets)[:1]
            return bool(first) and first[0].__class__ is Jump and first[0].kind == "continue"
        return decided is False and not test.orelse and len(body) == 1

    def after_listed(self, ev, frame) -> None:
        """The loop variable after a loop whose last value is not known (`__pycache__`)."""
        for name in ev.targets:
            if name:
                self.bind(name, OPAQUE, frame)


def _acting(events, targets) -> list:
    """`events` but reads, and calls of the loop value's own methods or of its string
    attributes' (a string's, an os.DirEntry's: they run no analysed code)."""
    return [e for e in events if e.__class__ is not Use and not (
        e.__class__ is Call and e.name in targets and e.attrs) and not (
        # the rest of an `and` / `or` that only reads so
        e.__class__ is If and e.why in ("and", "or") and
        not _acting(e.body, targets) and not _acting(e.orelse, targets))]


def _one_more(values, other):
    """The `__pycache__` entry (a name, a path or an os.DirEntry) that `other` has and
    `values` has not, when that is their only difference; else None."""
    if len(other) != len(values) + 1:
        return None
    for i, item in enumerate(other):
        if list(other[:i]) + list(other[i + 1:]) == list(values):
            name = item.attribute("name") if isinstance(item, PureObject) else item
            if isinstance(name, str) and name.rpartition("/")[2] == PYCACHE:
                return item
    return None
